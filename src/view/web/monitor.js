// The web monitor's page: polls the bridge's /state.json and /depth.png a
// few times a second and shows what the live view shows. Plain JavaScript,
// no libraries: installations are often offline.
"use strict";

const STATE_MS = 250;
const PICTURE_MS = 300;

const $ = (id) => document.getElementById(id);

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showOutputs(outputs) {
  const body = $("outputs").tBodies[0];
  body.replaceChildren();
  for (const o of outputs) {
    const row = body.insertRow();
    row.dataset.output = o.name;
    cell(row, o.label || o.name);
    const clients = o.clients === null ? "" : ", " + o.clients + (o.clients === 1 ? " client" : " clients");
    cell(row, o.state + clients + (o.last_error ? " (" + o.last_error + ")" : ""), "state-" + o.state);
    cell(row, String(o.messages));
    cell(row, String(o.errors));
  }
}

function showUsers(users) {
  const body = $("users").tBodies[0];
  body.replaceChildren();
  for (const u of users) {
    const row = body.insertRow();
    const joints = Object.values(u.joints);
    const head = u.joints.head;
    row.dataset.user = u.id;
    cell(row, "user " + u.id);
    cell(row, joints.filter((j) => j[2] > 0).length + " / " + joints.length);
    cell(row, head && head[2] > 0 ? head[0].toFixed(0) + ", " + head[1].toFixed(0) : "–");
  }
  $("users-count").textContent = users.length;
}

function show(state) {
  const frame = $("frame");
  frame.textContent = state.frame;
  frame.dataset.frame = state.frame;
  $("fps").textContent = state.fps.toFixed(1);
  showOutputs(state.outputs);
  showUsers(state.users);
  $("messages-total").textContent = "(" + state.messages_total + " in all)";
  $("messages").textContent = state.messages.join("\n");
  if (state.mapping) $("mapping").textContent = state.mapping;
  document.title = "skelbridge: " + state.source;
}

function setStatus(state, text) {
  const status = $("status");
  status.dataset.state = state;
  status.textContent = text;
}

async function pollState() {
  try {
    const response = await fetch("state.json", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const state = await response.json();
    show(state);
    setStatus("ok", state.source);
  } catch (e) {
    setStatus("lost", "no answer from the bridge (" + e.message + ")");
  }
  setTimeout(pollState, STATE_MS);
}

// A new picture replaces the old one only once loaded: no flicker.
function pollPicture() {
  const next = new Image();
  const again = () => setTimeout(pollPicture, PICTURE_MS);
  next.onload = () => {
    const old = $("depth");
    next.id = old.id;
    next.alt = old.alt;
    old.replaceWith(next);
    again();
  };
  next.onerror = again;
  next.src = "depth.png?t=" + Date.now();
}

pollState();
pollPicture();
