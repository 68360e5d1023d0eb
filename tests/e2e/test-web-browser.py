#!/usr/bin/python3
"""The web mapping in a real browser: skelbridge plays the demo routine's
true skeletons into a copy of mappings/web.map on a free port and, beside
it, the default mapping over UDP to this test. A headless Chromium, driven
over its DevTools protocol on a pipe (fds 3 and 4, NUL-terminated JSON),
opens examples/web/skeleton.html from disk with ?ws= and the web monitor at
http://127.0.0.1:PORT/.

The page's drawing, read back from window.skelbridgeDrawn, must hold, for
frames the test also received over UDP (matched by their bundles' time
tag), the same users and every joint within 0.1 mm of the true position,
drawn at the pixel the sensor's projection gives (within 0.5 px) in the
user's colour rather than the background. The monitor must show its frame
counter going up between two reads, the picture loaded, a user, and both
outputs ok, the web one with the example page as its client. Skips (77)
without Chromium."""
import json
import os
import queue
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.environ["SKELBRIDGE_SOURCE_ROOT"]
SCENE = "demo:poses"
FRAMES_CHECKED = 10
TOLERANCE_M = 0.0001
TOLERANCE_PX = 0.5
FOCAL = 575.8157 / 640  # the page's projection, in canvas widths
BACKGROUND = [17, 17, 17]
# The valgrind test setup runs skelbridge through a wrapper, ten times slower.
WRAPPER = os.environ.get("SKELBRIDGE_WRAPPER")
SLOW = 10 if WRAPPER else 1


def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- OSC, as the default mapping sends it over UDP

def osc_string(data, at):
    end = data.index(b"\0", at)
    return data[at:end].decode(), (end + 4) & ~3


def osc_message(data):
    address, at = osc_string(data, 0)
    tags, at = osc_string(data, at)
    args = []
    for tag in tags[1:]:
        if tag in "if":
            args.append(struct.unpack_from(">i" if tag == "i" else ">f", data, at)[0])
            at += 4
        elif tag == "s":
            text, at = osc_string(data, at)
            args.append(text)
        else:
            raise ValueError(f"type tag {tag}")
    return address, args


def osc_bundle(data):
    """(time tag, messages) of a bundle of messages."""
    if not data.startswith(b"#bundle\0"):
        return None, [osc_message(data)]
    tag = struct.unpack_from(">II", data, 8)
    messages, at = [], 16
    while at + 4 <= len(data):
        (size,) = struct.unpack_from(">i", data, at)
        messages.append(osc_message(data[at + 4:at + 4 + size]))
        at += 4 + size
    return tag, messages


JOINT = re.compile(r"^/skel/user(\d+)/([a-z_]+)$")


class Truth(threading.Thread):
    """Every frame of the default mapping, by time tag: user -> joint -> x y z c."""

    def __init__(self, sock):
        super().__init__(daemon=True)
        self.sock, self.frames, self.lock, self.stop = sock, {}, threading.Lock(), False

    def run(self):
        while not self.stop:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            tag, messages = osc_bundle(data)
            users = {}
            for address, args in messages:
                m = JOINT.match(address)
                if m:
                    users.setdefault(int(m[1]), {})[m[2]] = args[:4]
            if tag is not None and users:
                with self.lock:
                    self.frames[tuple(tag)] = users

    def frame(self, tag):
        with self.lock:
            return self.frames.get(tuple(tag))


# ---- Chromium's DevTools protocol over --remote-debugging-pipe

class Browser:
    def __init__(self, binary, profile, log):
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        # Chromium reads fd 3 and writes fd 4. Python's own fds are not
        # inheritable: without close_fds, only these two reach it.
        def fds():
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
             "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions",
             "--window-size=800,600", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=fds,
            close_fds=False, start_new_session=True)
        os.close(to_r)
        os.close(from_w)
        self.out, self.inp = to_w, from_r
        self.replies, self.next_id = queue.Queue(), 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self.inp, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.replies.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                text, buffer = buffer.split(b"\0", 1)
                message = json.loads(text)
                if "id" in message:
                    self.replies.put(message)

    def call(self, method, session=None, timeout=30, **params):
        self.next_id += 1
        request = {"id": self.next_id, "method": method, "params": params}
        if session:
            request["sessionId"] = session
        os.write(self.out, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.replies.get(timeout=max(0.1, deadline - time.monotonic()))
            if reply is None:
                raise RuntimeError("Chromium went away")
            if reply["id"] == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def open(self, url):
        target = self.call("Target.createTarget", url=url)["targetId"]
        return self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def evaluate(self, session, expression):
        result = self.call("Runtime.evaluate", session, expression=expression,
                           returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
        for fd in (self.out, self.inp):
            try:
                os.close(fd)
            except OSError:
                pass


# ---- the checks

# What the page drew, and the canvas's pixel under every joint, in one go.
READ_PAGE = """(() => {
  const canvas = document.getElementById("stage");
  if (!canvas || !window.skelbridgeDrawn) return null;  // not loaded yet
  const drawn = JSON.parse(JSON.stringify(window.skelbridgeDrawn));
  const ctx = canvas.getContext("2d");
  for (const user of Object.values(drawn.users))
    for (const j of Object.values(user.joints))
      j.pixel = Array.from(ctx.getImageData(Math.round(j.px), Math.round(j.py), 1, 1).data);
  return JSON.stringify({ drawn, width: canvas.width, height: canvas.height });
})()"""


def check_frame(page, truth, problems):
    drawn = page["drawn"]
    if sorted(map(int, drawn["users"])) != sorted(truth):
        problems.append(f"users drawn {sorted(drawn['users'])}, sent {sorted(truth)}")
        return
    for uid, joints in truth.items():
        shown = drawn["users"][str(uid)]["joints"]
        if sorted(shown) != sorted(joints):
            problems.append(f"user {uid}: joints drawn {sorted(shown)}, sent {sorted(joints)}")
        for name, (x, y, z, c) in joints.items():
            j = shown.get(name)
            if j is None:
                continue
            off = max(abs(j["x"] - x), abs(j["y"] - y), abs(j["z"] - z), abs(j["confidence"] - c))
            px = page["width"] / 2 + page["width"] * FOCAL * x / z
            py = page["height"] / 2 - page["width"] * FOCAL * y / z
            if off > TOLERANCE_M:
                problems.append(f"user {uid} {name}: drawn {j}, sent {(x, y, z, c)}")
            elif max(abs(j["px"] - px), abs(j["py"] - py)) > TOLERANCE_PX:
                problems.append(f"user {uid} {name}: at ({j['px']}, {j['py']}), not ({px}, {py})")
            elif 0 <= px < page["width"] and 0 <= py < page["height"] and \
                    j["pixel"][:3] == BACKGROUND:
                problems.append(f"user {uid} {name}: nothing drawn at ({px:.0f}, {py:.0f})")


def check_example(browser, port, truth):
    page_url = "file://" + os.path.join(ROOT, "examples", "web", "skeleton.html") + \
        f"?ws=ws://127.0.0.1:{port}/osc"
    session = browser.open(page_url)
    checked, seen, problems = 0, set(), []
    deadline = time.monotonic() + 60 * SLOW
    while checked < FRAMES_CHECKED and time.monotonic() < deadline and len(problems) < 10:
        time.sleep(0.2)
        page = json.loads(browser.evaluate(session, READ_PAGE) or "null")
        tag = page and page["drawn"]["timetag"]
        if not tag or tuple(tag) in seen:
            continue
        frame = truth.frame(tag)
        if frame is None:
            continue
        seen.add(tuple(tag))
        check_frame(page, frame, problems)
        checked += 1
    print(f"# example page: {checked} frames checked against the truth sent over UDP")
    for p in problems[:10]:
        print("#   " + p)
    return checked >= FRAMES_CHECKED and not problems


READ_MONITOR = """document.getElementById("depth") && JSON.stringify({
  frame: Number(document.getElementById("frame").dataset.frame || 0),
  picture: document.getElementById("depth").naturalWidth,
  outputs: Array.from(document.querySelectorAll("#outputs tbody tr"), (r) => r.dataset.output),
  states: Array.from(document.querySelectorAll("#outputs tbody tr"), (r) => r.cells[1].textContent),
  users: document.querySelectorAll("#users tbody tr").length,
})"""


def read_monitor(browser, session, after=0, timeout=30 * SLOW):
    deadline = time.monotonic() + timeout
    while True:
        state = json.loads(browser.evaluate(session, READ_MONITOR) or "null") or \
            {"frame": 0, "picture": 0, "outputs": [], "states": [], "users": 0}
        if (state["frame"] > after and state["picture"] > 0) or time.monotonic() > deadline:
            return state
        time.sleep(0.2)


def check_monitor(browser, port):
    session = browser.open(f"http://127.0.0.1:{port}/")
    first = read_monitor(browser, session)
    time.sleep(1.0)
    second = read_monitor(browser, session, after=first["frame"])
    print(f"# monitor: frame {first['frame']} then {second['frame']}, picture "
          f"{second['picture']} px wide, outputs {second['states']}, {second['users']} users")
    advances = 0 < first["frame"] < second["frame"]
    # The example page is still open: the web output's listener has a client.
    states = dict(zip(second["outputs"], second["states"]))
    shows = second["picture"] > 0 and states.get("default") == "ok" and \
        re.match(r"ok, [1-9]\d* clients?$", states.get("web", "")) and second["users"] >= 1
    return advances, bool(shows)


def web_mapping(tmp, port):
    with open(os.path.join(ROOT, "mappings", "web.map"), encoding="utf-8") as f:
        text = f.read()
    path = os.path.join(tmp, "web-test.map")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace("7180", str(port)))
    return path


def wait_listening(port, bridge, timeout=60 * SLOW):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and bridge.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def start_bridge(tmp, port, udp_port, log):
    argv = ["run", "--source", SCENE, "--loop", "--skeletons",
            "truth", "--no-watch", "--mapping", web_mapping(tmp, port), "--mapping", "default",
            "--target", f"default=osc.udp://127.0.0.1:{udp_port}"]
    return subprocess.Popen([WRAPPER or os.environ["SKELBRIDGE"]] + argv, stdout=log, stderr=log)


def report(results, logs):
    if not all(ok for _, ok in results):
        for name, path in logs:
            with open(path, errors="replace") as f:
                lines = f.read().splitlines()[-30:]
            sys.stdout.write(f"# {name} said:\n" + "".join(f"#   {line}\n" for line in lines))
    print(f"1..{len(results)}")
    for k, (name, ok) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {k} {name}")
    return 0 if all(ok for _, ok in results) else 1


def run(tmp, chromium):
    port = free_port()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    truth = Truth(sock)
    truth.start()
    bridge_log = os.path.join(tmp, "skelbridge.log")
    browser_log = os.path.join(tmp, "chromium.log")
    bridge = browser = None
    results = []
    try:
        with open(bridge_log, "w") as blog, open(browser_log, "w") as clog:
            bridge = start_bridge(tmp, port, sock.getsockname()[1], blog)
            listening = wait_listening(port, bridge)
            results.append(("/web/bridge/listens", listening))
            if listening:
                browser = Browser(chromium, os.path.join(tmp, "profile"), clog)
                results.append(("/web/example/draws-true-skeletons",
                                check_example(browser, port, truth)))
                advances, shows = check_monitor(browser, port)
                results.append(("/web/monitor/frame-advances", advances))
                results.append(("/web/monitor/shows-picture-users-outputs", shows))
    except (OSError, RuntimeError, ValueError, queue.Empty) as e:
        print(f"# {type(e).__name__}: {e}")
        results.append(("/web/browser/answers", False))
    finally:
        if browser is not None:
            browser.close()
        if bridge is not None:
            bridge.terminate()
            try:
                bridge.wait(timeout=60 * SLOW)
            except subprocess.TimeoutExpired:
                bridge.kill()
                bridge.wait()
        truth.stop = True
        sock.close()
    ok_exit = bridge is not None and bridge.returncode == 0
    results.append(("/web/bridge/exits-cleanly", ok_exit))
    return report(results, [("skelbridge", bridge_log), ("chromium", browser_log)])


def main():
    chromium = find_chromium()
    if chromium is None:
        print("1..0 # SKIP no chromium")
        return 77
    # meson's timeout and Ctrl-C end the test through the finally clauses.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    tmp = tempfile.mkdtemp(prefix="skelbridge-web-")
    try:
        return run(tmp, chromium)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
