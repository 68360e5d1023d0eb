// skelbridge's `web` mapping in p5.js: every user's skeleton, as in a
// mirror. The bridge sends the default mapping's messages as binary OSC
// over a WebSocket (ws://127.0.0.1:7180/osc; ?ws=URL for another); the
// small decoder below reads them, no OSC library needed.
"use strict";

const url = new URLSearchParams(location.search).get("ws") || "ws://127.0.0.1:7180/osc";
const BONES = [
  ["head", "neck"], ["neck", "torso"], ["neck", "left_shoulder"], ["neck", "right_shoulder"],
  ["left_shoulder", "left_elbow"], ["left_elbow", "left_hand"],
  ["right_shoulder", "right_elbow"], ["right_elbow", "right_hand"],
  ["torso", "left_hip"], ["torso", "right_hip"], ["left_hip", "left_knee"],
  ["left_knee", "left_foot"], ["right_hip", "right_knee"], ["right_knee", "right_foot"],
];
const COLOURS = ["#ff4fd8", "#00e5ff", "#fff200", "#7cff4f", "#ff8c1a", "#b26bff"];
const JOINT = /^\/skel\/user(\d+)\/([a-z_]+)$/;
const F = 575.8157 / 640; // the Kinect's focal length, in image widths

let users = {}; // ID -> { NAME: { x, y, z, confidence } }, metres

// ---- OSC: strings padded to 4 bytes, big-endian int32 and float32

function oscString(view, at) {
  let end = at;
  while (end < view.byteLength && view.getUint8(end) !== 0) end++;
  const bytes = new Uint8Array(view.buffer, view.byteOffset + at, end - at);
  return [new TextDecoder().decode(bytes), (end + 4) & ~3];
}

function oscMessage(view) {
  const [address, afterAddress] = oscString(view, 0);
  const [tags, afterTags] = oscString(view, afterAddress);
  const args = [];
  let at = afterTags;
  for (const tag of tags.slice(1)) {
    if (tag === "s") {
      const [text, next] = oscString(view, at);
      args.push(text);
      at = next;
      continue;
    }
    if (tag === "f") args.push(view.getFloat32(at));
    else if (tag === "i") args.push(view.getInt32(at));
    else return { address, args }; // a type this sketch does not need
    at += 4;
  }
  return { address, args };
}

function oscMessages(view, out = []) {
  if (oscString(view, 0)[0] !== "#bundle") {
    out.push(oscMessage(view));
    return out;
  }
  for (let at = 16; at + 4 <= view.byteLength;) {
    const size = view.getInt32(at);
    oscMessages(new DataView(view.buffer, view.byteOffset + at + 4, size), out);
    at += 4 + size;
  }
  return out;
}

// A packet with joints is a frame: it holds every user in view.
function receive(data) {
  const messages = oscMessages(new DataView(data));
  if (messages.some((m) => JOINT.test(m.address))) users = {};
  for (const m of messages) {
    const joint = JOINT.exec(m.address);
    if (joint && m.args.length >= 4) {
      const user = users[joint[1]] || (users[joint[1]] = {});
      user[joint[2]] = { x: m.args[0], y: m.args[1], z: m.args[2], confidence: m.args[3] };
    } else if (m.address === "/skel/lost_user") {
      delete users[m.args[0]];
    }
  }
}

function connect() {
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => receive(event.data);
  socket.onclose = () => {
    users = {};
    setTimeout(connect, 1000);
  };
}

// ---- p5

function setup() {
  createCanvas(windowWidth, windowHeight);
  connect();
}

function windowResized() {
  resizeCanvas(windowWidth, windowHeight);
}

// The sensor's projection, mirrored: users see themselves as in a mirror.
function place(j) {
  return [width / 2 + width * F * j.x / j.z, height / 2 - width * F * j.y / j.z];
}

function draw() {
  background(17);
  for (const [id, joints] of Object.entries(users)) {
    const colour = COLOURS[(id - 1) % COLOURS.length];
    stroke(colour);
    strokeWeight(6);
    for (const [a, b] of BONES) {
      if (joints[a] && joints[b]) line(...place(joints[a]), ...place(joints[b]));
    }
    noStroke();
    fill(colour);
    for (const j of Object.values(joints)) circle(...place(j), 14);
  }
}
