#!/usr/bin/env python3
"""Checks HTML reports in real headless Chromium, driven over the DevTools protocol on a pipe (standard
library only, no browser download: Debian's `chromium` package).

    scripts/check-html.py [--screenshots DIR] REPORT.html …

For each report, at a desktop width (1280 px) and a phone width (390 px):
- no console message, JavaScript exception or failed load at level error;
- the page does not scroll sideways (wide tables scroll inside themselves);
- the chart, when there is one: every lane with events shows a bar at least 4 px tall, its tick labels are
  at least 11 px and do not overlap, and it has the table fallback;
- timestamps in the timeline table stay on one line;
- printed (print media emulated): every collapsed evidence block (`<details>`) shows its content.
With --screenshots, writes DIR/<report>-<width>.png (the whole page), DIR/<report>-<width>-chart.png (the
chart alone) and DIR/<report>.pdf (printed).
Exit status: 0 all checks pass, 1 a check failed, 2 bad usage or Chromium missing or failing.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

WIDTHS = (1280, 390)

PAGE_CHECKS = r"""
(() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1) problems.push(`page scrolls sideways: ${doc.scrollWidth} px wide in a ${window.innerWidth} px window`);
  const chart = document.querySelector('figure.chart');
  if (chart) {
    for (const lane of chart.querySelectorAll('.lane')) {
      const bars = [...lane.querySelectorAll('.seg i:not(.z)')];
      if (bars.length === 0) problems.push(`lane ${lane.className} has no bar`);
      for (const bar of bars) {
        const r = bar.getBoundingClientRect();
        if (r.height < 4 || r.width < 1) { problems.push(`lane ${lane.className}: a bar is ${r.width.toFixed(1)}×${r.height.toFixed(1)} px`); break; }
      }
    }
    const ticks = [...chart.querySelectorAll('.axis .tick')].filter(t => getComputedStyle(t).display !== 'none');
    if (ticks.length === 0) problems.push('the chart axis shows no tick label');
    for (const t of ticks) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (size < 11) { problems.push(`tick label "${t.textContent}" is ${size} px`); break; }
    }
    const rects = ticks.map(t => [t.textContent, t.getBoundingClientRect()]).sort((a, b) => a[1].left - b[1].left);
    for (let i = 1; i < rects.length; i++) {
      if (rects[i][1].left < rects[i - 1][1].right - 0.5 && Math.abs(rects[i][1].top - rects[i - 1][1].top) < 2)
        problems.push(`tick labels "${rects[i - 1][0]}" and "${rects[i][0]}" overlap`);
    }
    const chartRect = chart.getBoundingClientRect();
    for (const [text, r] of rects) if (r.right > chartRect.right + 1 || r.left < chartRect.left - 1) problems.push(`tick label "${text}" sticks out of the chart`);
    if (!chart.querySelector('details.chart-data table')) problems.push('the chart has no table fallback');
    if (!chart.querySelector('[role=img][aria-labelledby]')) problems.push('the chart has no accessible name');
  }
  for (const cell of document.querySelectorAll('td.t')) {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) { problems.push(`timestamp "${cell.textContent}" wraps onto ${lines.size} lines`); break; }
  }
  return problems;
})()
"""

PRINT_CHECKS = r"""
(() => {
  const problems = [];
  for (const d of document.querySelectorAll('details')) {
    const inner = [...d.children].filter(c => c.tagName !== 'SUMMARY');
    for (const c of inner) {
      if (!c.checkVisibility() || c.getBoundingClientRect().height === 0) { problems.push(`printed, "${d.querySelector('summary')?.textContent}" stays collapsed`); break; }
    }
  }
  return problems;
})()
"""


class Browser:
    """Chromium with --remote-debugging-pipe: commands go to its fd 3, answers come from its fd 4, each a JSON
    object ended by a NUL byte."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="cdlog-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # Out of the way of 3 and 4 first, so that wiring one cannot overwrite the other.
        to_browser_r, from_browser_w = self._high(to_browser_r), self._high(from_browser_w)

        def wire():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [binary, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.profile, "stderr.txt"), "w"),
            pass_fds=(3, 4, to_browser_r, from_browser_w), preexec_fn=wire)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def _high(fd):
        moved = os.dup2(fd, 100 + fd)
        os.close(fd)
        return moved

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                with open(os.path.join(self.profile, "stderr.txt"), errors="replace") as err:
                    last = [line.strip() for line in err if "ERROR" in line and "dbus" not in line][-1:]
                raise RuntimeError("Chromium closed its pipe" + (f" ({last[0]})" if last else ""))
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method, session):
        for i, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self.read()
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(browser, session, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"check script failed: {result['exceptionDetails'].get('text')}")
    return result["result"].get("value", [])


def console_errors(events, session):
    errors = []
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append("exception: " + params.get("exceptionDetails", {}).get("text", ""))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            errors.append("log error: " + params["entry"].get("text", ""))
    return errors


def check(browser, path, screenshots):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        browser.send(f"{domain}.enable", session=session)
    problems = []
    name = os.path.splitext(os.path.basename(path))[0]
    for width in WIDTHS:
        browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}, session)
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session)
        browser.wait_for("Page.loadEventFired", session)
        problems += [f"{width} px: {p}" for p in evaluate(browser, session, PAGE_CHECKS)]
        if screenshots:
            height = evaluate(browser, session, "document.documentElement.scrollHeight")
            browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": min(int(height), 16000), "deviceScaleFactor": 1, "mobile": width < 600}, session)
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session)
            with open(os.path.join(screenshots, f"{name}-{width}.png"), "wb") as out:
                out.write(base64.b64decode(shot["data"]))
            box = evaluate(browser, session, "(() => { const c = document.querySelector('figure.chart'); if (!c) return null;"
                                             " const r = c.getBoundingClientRect(); return [r.left, r.top + scrollY, r.width, r.height]; })()")
            if box:
                clip = dict(zip(("x", "y", "width", "height"), box), scale=2 if width < 600 else 1)
                shot = browser.send("Page.captureScreenshot", {"format": "png", "clip": clip}, session)
                with open(os.path.join(screenshots, f"{name}-{width}-chart.png"), "wb") as out:
                    out.write(base64.b64decode(shot["data"]))
    browser.send("Emulation.setEmulatedMedia", {"media": "print"}, session)
    problems += [f"print: {p}" for p in evaluate(browser, session, PRINT_CHECKS)]
    browser.send("Emulation.setEmulatedMedia", {"media": ""}, session)
    pdf = browser.send("Page.printToPDF", {"printBackground": True}, session)
    if screenshots:
        with open(os.path.join(screenshots, f"{name}.pdf"), "wb") as out:
            out.write(base64.b64decode(pdf["data"]))
    problems += console_errors(browser.events, session)
    browser.send("Target.closeTarget", {"targetId": target})
    return problems


def main(arguments):
    screenshots = None
    if arguments[:1] == ["--screenshots"]:
        if len(arguments) < 2:
            print("check-html: --screenshots needs a folder", file=sys.stderr)
            return 2
        screenshots = arguments[1]
        os.makedirs(screenshots, exist_ok=True)
        arguments = arguments[2:]
    if not arguments:
        print("usage: check-html.py [--screenshots DIR] REPORT.html …", file=sys.stderr)
        return 2
    binary = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if binary is None:
        print("check-html: Chromium not found (Debian: apt-get install -y chromium)", file=sys.stderr)
        return 2
    browser = Browser(binary)
    failed = False
    try:
        for path in arguments:
            problems = check(browser, path, screenshots)
            print(f"{'FAIL' if problems else 'ok'}  {path}" + "".join(f"\n      {p}" for p in problems))
            failed = failed or bool(problems)
    except (RuntimeError, OSError) as error:
        print(f"check-html: {error}", file=sys.stderr)
        return 2
    finally:
        browser.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
