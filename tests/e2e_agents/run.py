"""The stop hook in the real clients: Claude Code, Codex CLI and Gemini CLI, headless, each
against a scripted model on 127.0.0.1.

Outside the pytest suite (it needs node and npm; the suite must not). Run by .ci/run:

    python tests/e2e_agents/run.py [--only claude-code,codex] [--cache DIR]

The clients come from npm, pinned in versions.json next to this file (the one place: change a
version there, run this, and update docs/agents.md's table from what it shows), installed
once into the cache directory (default ~/.cache/receipt-hooks/e2e-agents, or
RECEIPT_E2E_CACHE). npm's registry is the only network it uses, at install time; the clients
talk only to the mock model.

The mock model speaks each client's streamed API (Anthropic Messages for Claude Code through
ANTHROPIC_BASE_URL, OpenAI Responses for Codex through a ``model_providers`` entry, the
Gemini API through GOOGLE_GEMINI_BASE_URL) on one free port per run, for a bounded time. It
never calls a tool: a scripted turn may run a command in the repository before it answers
(``receipt run -- pytest -q``, an edit), as an agent's tool call would. Each scenario is a
fresh repository set up by ``receipt init --test-command 'pytest -q' --agent NAME``:

- no-receipt: the model edits and claims success; the stop is blocked, the reason is in the
  model's next request; it runs ``receipt run`` and the stop goes through;
- stale: a green receipt, then an edit; blocked ("changed since the last green receipt");
- never-tests: the model only ever claims; let through after the cap, ``fuse_blown`` logged;
- init-alone: the repository exactly as ``receipt init`` left it: one green run suffices.

Prints PASS/FAIL per client and scenario; exits 1 on any FAIL (2 when a client cannot be
installed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VERSIONS: dict[str, dict[str, str]] = json.loads((HERE / "versions.json").read_text())
CLIENT_SECONDS = 180  # one client run, all its turns
SERVER_SECONDS = 1800  # the mock model's whole life: it stops serving after this
CAP = 3  # the hook's default max-blocks

CALC = "def add(a, b):\n    return a - b\n"
CALC_FIXED = "def add(a, b):\n    return a + b\n"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n"

# ---------------------------------------------------------------------------------------------
# the scripted model


class Turn:
    """One answer of the model: DO runs first (the agent's tool call), then it says TEXT."""

    def __init__(self, text: str, do: Callable[[], None] | None = None) -> None:
        self.text = text
        self.do = do


class Script:
    def __init__(self, turns: list[Turn]) -> None:
        self.turns = turns
        self.requests: list[str] = []  # the body of each main-loop request, as text
        self.lock = threading.Lock()

    def next(self, body: str) -> str:
        with self.lock:
            self.requests.append(body)
            turn = self.turns[min(len(self.requests), len(self.turns)) - 1]
            if turn.do is not None and len(self.requests) <= len(self.turns):
                turn.do()
            return turn.text


def _sse(events: list[tuple[str | None, dict[str, object]]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


def anthropic_stream(text: str) -> bytes:
    return _sse([
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_mock", "type": "message", "role": "assistant", "model": "mock",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": text}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def anthropic_message(text: str) -> bytes:
    return json.dumps({"id": "msg_mock", "type": "message", "role": "assistant",
                       "model": "mock", "content": [{"type": "text", "text": text}],
                       "stop_reason": "end_turn", "stop_sequence": None,
                       "usage": {"input_tokens": 10, "output_tokens": 5}}).encode()


def responses_stream(text: str, n: int) -> bytes:
    usage = {"input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
             "output_tokens_details": None, "total_tokens": 15}
    return _sse([
        ("response.created", {"type": "response.created", "response": {"id": f"resp_{n}"}}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                       "item": {"type": "message", "role": "assistant",
                                                "id": f"msg_{n}", "content": [
                                                    {"type": "output_text", "text": text}]}}),
        ("response.completed", {"type": "response.completed",
                                "response": {"id": f"resp_{n}", "usage": usage}}),
    ])


def gemini_chunk(text: str) -> dict[str, object]:
    return {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                              "totalTokenCount": 15},
            "modelVersion": "gemini-2.5-pro"}


class MockModel:
    """One HTTP server on 127.0.0.1 and a free port; the script of the scenario running."""

    def __init__(self) -> None:
        self.script = Script([])
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, body: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # model lists and the like: nothing to offer
                self._send(b'{"data": [], "models": []}', "application/json")

            def do_HEAD(self) -> None:
                self._send(b"", "application/json")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace")
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith("/messages/count_tokens"):
                    self._send(b'{"input_tokens": 10}', "application/json")
                elif path.endswith("/messages"):
                    main = bool(body.get("tools"))  # side requests (titles...) carry none
                    text = model.script.next(raw) if main else "OK"
                    if body.get("stream"):
                        self._send(anthropic_stream(text), "text/event-stream")
                    else:
                        self._send(anthropic_message(text), "application/json")
                elif path.endswith("/responses"):
                    text = model.script.next(raw)
                    self._send(responses_stream(text, len(model.script.requests)),
                               "text/event-stream")
                elif ":streamGenerateContent" in path:
                    text = model.script.next(raw)
                    self._send(_sse([(None, gemini_chunk(text))]), "text/event-stream")
                elif ":generateContent" in path:  # Gemini's side questions (next speaker...)
                    answer = json.dumps({"reasoning": "The model has finished.",
                                         "next_speaker": "user"})
                    self._send(json.dumps(gemini_chunk(answer)).encode(), "application/json")
                elif ":countTokens" in path:
                    self._send(b'{"totalTokens": 10}', "application/json")
                else:
                    self.send_response(404)
                    self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.deadline = threading.Timer(SERVER_SECONDS, self.server.shutdown)
        self.deadline.daemon = True
        self.deadline.start()

    def close(self) -> None:
        self.deadline.cancel()
        self.server.shutdown()
        self.server.server_close()


# ---------------------------------------------------------------------------------------------
# the clients


def install(cache: Path, client: str) -> Path:
    """The client's executable, installed from npm into CACHE once per pinned version."""
    pin = VERSIONS[client]
    prefix = cache / f"{pin['package'].replace('/', '+')}@{pin['version']}"
    binary = prefix / "node_modules" / ".bin" / pin["bin"]
    if not binary.exists():
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                        "--loglevel=error", f"{pin['package']}@{pin['version']}"],
                       check=True, stdout=subprocess.DEVNULL)
    return binary


def base_env(home: Path, bin_dirs: list[str]) -> dict[str, str]:
    return {
        "HOME": str(home), "PATH": os.pathsep.join([*bin_dirs, "/usr/local/bin", "/usr/bin",
                                                    "/bin"]),
        "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", "CI": "1",
        "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"), "GIT_CONFIG_NOSYSTEM": "1",
        "PYTHONDONTWRITEBYTECODE": "",  # pytest writes __pycache__ as it does for users
    }


class Client:
    """How to start one client headless against the mock, in REPO, with HOME."""

    def __init__(self, name: str, binary: Path) -> None:
        self.name = name
        self.binary = binary

    def command(self, prompt: str) -> list[str]:
        if self.name == "claude-code":
            return [str(self.binary), "-p", prompt, "--output-format", "text",
                    "--model", "claude-sonnet-4-5", "--max-turns", "30"]
        if self.name == "codex":
            # the harness's own throwaway CODEX_HOME trusts the project; the hook's trust by
            # hash is Codex's /hooks review, which has no headless form: bypassed for the run
            return [str(self.binary), "exec", "--skip-git-repo-check",
                    "--dangerously-bypass-hook-trust", prompt]
        return [str(self.binary), "-p", prompt, "--model", "gemini-2.5-pro"]

    def prepare(self, home: Path, repo: Path, port: int, env: dict[str, str]) -> None:
        base = f"http://127.0.0.1:{port}"
        if self.name == "claude-code":
            env.update(ANTHROPIC_BASE_URL=base, ANTHROPIC_API_KEY="sk-mock",
                       CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1",
                       DISABLE_AUTOUPDATER="1", DISABLE_ERROR_REPORTING="1")
        elif self.name == "codex":
            codex_home = home / ".codex"
            codex_home.mkdir(parents=True, exist_ok=True)
            (codex_home / "config.toml").write_text(
                'model = "mock-model"\nmodel_provider = "mock"\napproval_policy = "never"\n'
                'sandbox_mode = "workspace-write"\n'
                f'[model_providers.mock]\nname = "mock"\nbase_url = "{base}/v1"\n'
                'wire_api = "responses"\nenv_key = "MOCK_API_KEY"\n'
                f'[projects."{repo}"]\ntrust_level = "trusted"\n')
            env.update(CODEX_HOME=str(codex_home), MOCK_API_KEY="mock")
        else:
            gemini_home = home / ".gemini"
            gemini_home.mkdir(parents=True, exist_ok=True)
            (gemini_home / "trustedFolders.json").write_text(
                json.dumps({str(repo): "TRUST_FOLDER"}))
            (gemini_home / "settings.json").write_text(json.dumps(
                {"security": {"auth": {"selectedType": "gemini-api-key"}},
                 "telemetry": {"enabled": False}, "privacy": {"usageStatisticsEnabled": False},
                 "general": {"disableAutoUpdate": True}}))
            env.update(GOOGLE_GEMINI_BASE_URL=base, GEMINI_API_KEY="mock")


# ---------------------------------------------------------------------------------------------
# the scenarios


def git(repo: Path, *args: str, env: dict[str, str]) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def new_repo(where: Path, client: str, env: dict[str, str], ignore_cache: bool) -> Path:
    repo = where / "shop"
    repo.mkdir()
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TEST_CALC)
    git(repo, "init", "-q", "-b", "main", env=env)
    subprocess.run(["receipt", "init", "--test-command", "pytest -q", "--agent", client],
                   cwd=repo, env=env, check=True, capture_output=True)
    if ignore_cache:  # what a project with a Python .gitignore has
        with open(repo / ".gitignore", "a") as f:
            f.write("__pycache__/\n.pytest_cache/\n")
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "--no-verify", "-m", "init", env=env)  # no pre-commit fetch
    return repo


def run_tests(repo: Path, env: dict[str, str]) -> Callable[[], None]:
    def do() -> None:
        subprocess.run(["receipt", "run", "--", "pytest", "-q"], cwd=repo, env=env,
                       capture_output=True, check=False)
    return do


def edit(repo: Path, text: str) -> Callable[[], None]:
    def do() -> None:
        (repo / "calc.py").write_text(text)
    return do


def both(*steps: Callable[[], None]) -> Callable[[], None]:
    def do() -> None:
        for step in steps:
            step()
    return do


def ledger_events(repo: Path) -> list[dict[str, object]]:
    path = repo / "assumption-ledger.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class Outcome:
    def __init__(self, ok: bool, why: str) -> None:
        self.ok = ok
        self.why = why


def scenario(client: Client, name: str, model: MockModel, work: Path) -> Outcome:
    home = work / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = E2E\n\temail = e2e@example.invalid\n")
    env = base_env(home, [str(Path(sys.executable).parent), str(client.binary.parent),
                          os.path.dirname(shutil.which("node") or "/usr/bin/node")])
    repo = new_repo(work, client.name, env, ignore_cache=name != "init-alone")
    claim = "Done. I fixed add() and all tests pass."
    if name == "no-receipt":
        turns = [Turn(claim, edit(repo, CALC_FIXED)),
                 Turn(claim, run_tests(repo, env))]
        expect_requests, expect_reason = 2, "no green receipt covers this work tree"
    elif name == "stale":
        edit(repo, CALC_FIXED)()
        run_tests(repo, env)()  # green on the fixed add()
        turns = [Turn("I also tidied calc.py.", edit(repo, CALC_FIXED + "\n# tidy\n")),
                 Turn(claim, run_tests(repo, env))]
        expect_requests, expect_reason = 2, "the work tree changed since the last green receipt"
    elif name == "never-tests":
        turns = [Turn(claim, edit(repo, CALC_FIXED))] + [Turn(claim)] * (CAP + 3)
        expect_requests, expect_reason = CAP + 1, "no green receipt covers this work tree"
    else:  # init-alone
        turns = [Turn(claim, edit(repo, CALC_FIXED)), Turn(claim, run_tests(repo, env))]
        expect_requests, expect_reason = 2, "no green receipt covers this work tree"
    model.script = Script(turns)
    client.prepare(home, repo, model.port, env)
    try:
        proc = subprocess.run(client.command("add() is wrong: fix it and run the tests."),
                              cwd=repo, env=env, stdin=subprocess.DEVNULL, check=False,
                              capture_output=True, timeout=CLIENT_SECONDS)
    except subprocess.TimeoutExpired:
        return Outcome(False, f"no answer in {CLIENT_SECONDS} s after "
                              f"{len(model.script.requests)} model request(s)")
    requests = model.script.requests
    tail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip().splitlines()[-3:]
    if proc.returncode != 0:
        return Outcome(False, f"exit {proc.returncode} after {len(requests)} request(s): "
                              f"{' | '.join(tail)}")
    if len(requests) != expect_requests:
        return Outcome(False, f"{len(requests)} model request(s), expected {expect_requests} "
                              f"(a stop blocked {expect_requests - 1} time(s)); the last "
                              f"reason: {last_reason(requests)}")
    if not any(expect_reason in r.replace("\\", "") for r in requests[1:]):
        return Outcome(False, f"the block reason ({expect_reason!r}) is in no later request")
    events = [e.get("event") for e in ledger_events(repo)]
    if name == "never-tests" and events != ["fuse_blown"]:
        return Outcome(False, f"ledger events {events}, expected ['fuse_blown']")
    if name != "never-tests" and "fuse_blown" in events:
        return Outcome(False, f"ledger events {events}: the cap was reached")
    return Outcome(True, f"{len(requests)} model request(s)")


def last_reason(requests: list[str]) -> str:
    """The hook's last block reason the model was sent, as far as a request shows it."""
    text = requests[-1].replace("\\\"", '"') if requests else ""
    start = text.rfind("receipt: ")
    return text[start:start + 400].split('"}')[0] if start >= 0 else "(none)"


SCENARIOS = ("no-receipt", "stale", "never-tests", "init-alone")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tests/e2e_agents/run.py")
    parser.add_argument("--only", default=",".join(VERSIONS),
                        help="comma-separated clients (default: all)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--cache", default=os.environ.get(
        "RECEIPT_E2E_CACHE", str(Path.home() / ".cache" / "receipt-hooks" / "e2e-agents")))
    parser.add_argument("--keep", action="store_true", help="keep the scenario directories")
    args = parser.parse_args(argv)
    if shutil.which("npm") is None or shutil.which("node") is None:
        print("e2e agents: FAIL: node and npm are needed to install the clients")
        return 2
    if shutil.which("receipt", path=str(Path(sys.executable).parent)) is None:
        print(f"e2e agents: FAIL: no receipt next to {sys.executable}: run it with the "
              f"project's venv python")
        return 2
    failed = 0
    model = MockModel()
    try:
        for name in args.only.split(","):
            pin = VERSIONS[name]
            try:
                client = Client(name, install(Path(args.cache), name))
            except (OSError, subprocess.CalledProcessError) as e:
                print(f"FAIL {name} {pin['version']}: install: {e}")
                failed += 1
                continue
            for which in args.scenarios.split(","):
                work = Path(tempfile.mkdtemp(prefix=f"e2e-{name}-{which}-"))
                started = time.monotonic()
                try:
                    outcome = scenario(client, which, model, work)
                except subprocess.CalledProcessError as e:
                    said = (e.stderr or b"").decode("utf-8", "replace").strip()
                    outcome = Outcome(False, f"set-up: {e}: {said}")
                except (OSError, subprocess.SubprocessError) as e:
                    outcome = Outcome(False, f"set-up: {e}")
                finally:
                    if not args.keep:
                        shutil.rmtree(work, ignore_errors=True)
                print(f"{'PASS' if outcome.ok else 'FAIL'} {name} {pin['version']} {which}: "
                      f"{outcome.why} ({time.monotonic() - started:.0f} s)", flush=True)
                failed += not outcome.ok
    finally:
        model.close()
    print(f"e2e agents: {failed} failed" if failed else "e2e agents: all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
