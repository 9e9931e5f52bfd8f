"""Bot bundles for the hosted-bot tests: each a folder holding bot.py (the Python SDK), stored as a
validated version, so a test plays it as hosted:NAME."""

from __future__ import annotations

import textwrap
from pathlib import Path

from sqlalchemy.engine import Engine

from tourney.tournament.store.hosted import VALIDATED, add_version, set_status
from tourney.workers.sandbox import pack_bundle

GAME = "ninja-versus-ninja"

PLAYS = """
import random, sys
from tourney_bot import Bot, run_bot

class Random(Bot):
    def act(self, observation, legal_actions, request):
        return random.randrange(len(legal_actions))
"""

# A bot that plays its own match (connected first, its opponent slower) and attacks the arena through
# the same socket meanwhile (@ATTACK@, once per turn of a loop bounded to 15 s); it never returns to run_bot.
HOSTILE_SESSION = """
import grpc, os, threading, time
from tourney_bot import BotClient
from tourney_bot.generated import arena_pb2 as pb

def silence():
    time.sleep(11)
    yield from ()

def list_or_error(call):
    try:
        list(call)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and not refused.is_set():
            refused.set()
            print("ATTACK: refused", exc.details(), flush=True)

refused = threading.Event()

class Hostile(Random):
    def act(self, observation, legal_actions, request):
        refused.wait(10)  # plays on once the attack has met the arena's limit (the log says it did)
        return super().act(observation, legal_actions, request)

client = BotClient(os.environ["TOURNEY_ARENA"], Hostile(), name=os.environ["TOURNEY_BOT_NAME"],
                   token=os.environ["TOURNEY_TOKEN"])

def attack():
    client.connected.wait(30)
    channel = grpc.insecure_channel(os.environ["TOURNEY_ARENA"])
    play = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                 response_deserializer=pb.ArenaMessage.FromString)
    end, held = time.monotonic() + 15, []
    while time.monotonic() < end:@ATTACK@

threading.Thread(target=attack, daemon=True).start()
client.run(max_matches=1)
time.sleep(1)
os._exit(0)
"""

BEFORE_PLAYING = {
    # Plays fairly; exists so that other bots' matches run beside the hostile ones.
    "good": "",
    # Tries the organiser's loopback listener (its port is written in by the test).
    "net": """
import socket
try:
    socket.create_connection(("127.0.0.1", PORT), timeout=2).close()
    print("NET: connected", flush=True)
except OSError as exc:
    print(f"NET: refused {exc}", flush=True)
""",
    # Reads a file of the organiser's and the environment.
    "snoop": """
import os
try:
    print("SNOOP: file", open(SECRET_PATH).read(), flush=True)
except OSError as exc:
    print(f"SNOOP: no file ({exc.__class__.__name__})", flush=True)
print("SNOOP: env", sorted(k for k in os.environ if k.startswith("TOURNEY_")), flush=True)
print("SNOOP: values", sorted(os.environ.values()), flush=True)
try:  # the sandbox's first process: what it was started with
    print("SNOOP: init", open("/proc/1/environ").read().split(chr(0)), flush=True)
except OSError as exc:
    print(f"SNOOP: no init environ ({exc.__class__.__name__})", flush=True)
""",
    # Looks for what it left in its scratch in an earlier match, then leaves it.
    "remember": """
import os
for where in (os.path.join(os.environ["HOME"], "memory"), "/tmp/memory"):
    print("REMEMBER:", where, "found" if os.path.exists(where) else "fresh", flush=True)
    open(where, "w").write("seen")
""",
    # Starts a child in its own session that would sleep past the match.
    "orphan": """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "MARKER"], start_new_session=True)
print("ORPHAN: child", child.pid, flush=True)
""",
    # Connects a second session under its opponent's name (seat 1 of an unpinned hosted:good).
    "impostor": """
import os, threading
from tourney_bot import BotClient

def impersonate():
    try:
        BotClient(os.environ["TOURNEY_ARENA"], Random(), name="good-1", token="guessed").run(max_matches=1)
        print("IMPOSTOR: admitted", flush=True)
    except Exception as exc:
        print("IMPOSTOR: refused", type(exc).__name__, flush=True)

threading.Thread(target=impersonate, daemon=True).start()
""",
    # Never says Hello: spins four processes, more than its CPU cap lets run, to be kept "waiting for a CPU".
    "spinner": """
import os, time
for _ in range(2):
    os.fork()
end = time.monotonic() + 120
while time.monotonic() < end:
    pass
""",
    # Takes a second and a half to start (loads a model, say), then plays fairly.
    "slow": """
import time
time.sleep(1.5)
""",
    # Once in, spends its arena address's failed-token tries (wrong tokens under its opponent's name)
    # and its connection's Hellos for 15 s, so that a seat connecting later would be refused as "too
    # many failed authentications" or "too many Hello messages".
    "locker": HOSTILE_SESSION.replace("@ATTACK@", """
        hello = pb.BotMessage(hello=pb.Hello(bot_name="slow-1", token="guess")).SerializeToString()
        list_or_error(play(iter([hello]), timeout=2))
        time.sleep(0.02)  # under the arena's 100 new calls a second from one address: never paused"""),
    # Once in, holds 8 Play streams that never say Hello for 15 s (each for the arena's Hello deadline),
    # so that a seat connecting later would find its connection's calls in flight all taken.
    "crowder": HOSTILE_SESSION.replace("@ATTACK@", """
        held = [t for t in held if t.is_alive()]
        if len(held) < 8:
            held.append(threading.Thread(target=lambda: list_or_error(play(silence(), timeout=12)), daemon=True))
            held[-1].start()
        time.sleep(0.05)"""),
    # Opens up to 200 connections to its arena socket at once (the most its open-file cap leaves room for),
    # and says how many it opened and how many the arena took (answered its HTTP/2 preface); every read is
    # bounded, so it says so before its seat's start wait ends even on a loaded machine.
    "hoarder": """
import os, socket, time
path = os.environ["TOURNEY_ARENA"][len("unix:"):]
preface = b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" + bytes.fromhex("000000040000000000")
held, tried = [], 0
for _ in range(200):
    tried += 1
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(0.5)  # a full backlog blocks connect(): the arena has stopped taking them, enough are open
    try:
        sock.connect(path)
        sock.sendall(preface)
    except OSError:
        sock.close()
        break
    held.append(sock)
    sock.setblocking(False)
answered, deadline, quiet_since = set(), time.monotonic() + 4, None
while time.monotonic() < deadline:  # until one second passes with no new answer after the first
    before = len(answered)
    for i, sock in enumerate(held):
        if i not in answered:
            try:
                if sock.recv(65536):
                    answered.add(i)
            except OSError:
                pass
    if answered and len(answered) == before:
        quiet_since = quiet_since or time.monotonic()
        if time.monotonic() - quiet_since > 1:
            break
    else:
        quiet_since = None
    time.sleep(0.05)
for sock in held:
    sock.close()
print("HOARDER: tried", tried, "answered", len(answered), flush=True)
""",
    # Looks through every folder it can see for Unix sockets other than its own seat's (its opponent's,
    # the organiser's) and tries to connect to each.
    "peeker": """
import os, socket, stat
own = os.path.realpath(os.environ["TOURNEY_ARENA"][len("unix:"):])
print("PEEK: own", own, flush=True)
seen = 0
for top, dirs, files in os.walk("/"):
    # The read-only system folders hold no sockets and would take the sandbox's CPU past the seat's wait.
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev", "/usr", "/lib", "/lib64")]
    for name in files + dirs:
        path = os.path.join(top, name)
        seen += 1
        try:
            if not stat.S_ISSOCK(os.lstat(path).st_mode) or os.path.realpath(path) == own:
                continue
        except OSError:
            continue
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.connect(path)
            print("PEEK: reached", path, flush=True)
        except OSError as exc:
            print("PEEK: other socket", path, exc.__class__.__name__, flush=True)
        finally:
            sock.close()
    if seen > 50_000:
        break
print("PEEK: looked at", seen, flush=True)
""",
    # Tries to write a file into every folder it can see (but /proc and /sys) and says where it could,
    # with the size of that filesystem: a place to write is memory of the machine's it could fill.
    "scribbler": """
import os
tried = 0
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys")]
    tried += 1
    path = os.path.join(top, ".scribble")
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        os.unlink(path)
        vfs = os.statvfs(top)
        print("SCRIBBLE: wrote", top, vfs.f_blocks * vfs.f_frsize, flush=True)
    except OSError:
        pass
    if tried > 20_000:
        break
print("SCRIBBLE: tried", tried, flush=True)
""",
    # Connects, but says it plays another game only: its seat is open and never free for this match.
    "elsewhere": """
import os
from tourney_bot import BotClient
client = BotClient(os.environ["TOURNEY_ARENA"], Random(), name=os.environ["TOURNEY_BOT_NAME"],
                   token=os.environ["TOURNEY_TOKEN"], games=["tiny-ninjas"])
print("ELSEWHERE: connecting for another game", flush=True)
client.run(max_matches=1)  # no match comes: held until the match's end stops the sandbox
os._exit(0)
""",
    # Never says Hello: holds the arena's socket open and says nothing.
    "silent": """
import os, socket, time
sock = socket.socket(socket.AF_UNIX)
sock.connect(os.environ["TOURNEY_ARENA"][len("unix:"):])
print("SILENT: connected, saying nothing", flush=True)
time.sleep(300)
""",
}

IN_ACT = {
    # Every process forks until the cap refuses; the first one then exits.
    "forkbomb": """
        import os, time
        first = os.getpid()
        try:
            while True:
                os.fork()
        except OSError as exc:
            if os.getpid() == first:
                print("FORKBOMB: refused", exc, flush=True)
                os._exit(3)
            time.sleep(300)
""",
    # Allocates 4 GiB, touching every page.
    "hog": """
        blocks = [b"x" * (64 << 20) for _ in range(64)]
        print("HOG: allocated", len(blocks), flush=True)
""",
    # Always its first legal action: an opponent as deterministic as the match (for seeded environments).
    "first": """
        return 0
""",
    # Makes 150,000 empty files in /tmp (no block of the tmpfs's size each: an inode of kernel memory), once.
    "filer": """
        import os
        if not os.path.exists("/tmp/0"):
            for i in range(150_000):
                open(f"/tmp/{i}", "w").close()
            print("FILER: made them all", flush=True)
""",
    # Three children of 450 MiB each, every one under the 1 GiB address-space rlimit, held together for 5 s.
    "herd": """
        import subprocess, sys, time
        hold = ("b = bytearray(450 << 20)\\nfor i in range(0, len(b), 4096): b[i] = 1\\n"
                "print('ready', flush=True)\\nimport sys; sys.stdin.read()")
        if not hasattr(sys, "herded"):  # in its first move only
            sys.herded = True
            herd = [subprocess.Popen([sys.executable, "-c", hold], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                    for _ in range(3)]
            for child in herd:
                child.stdout.readline()
            print("HERD: 1350 MiB held", flush=True)
            time.sleep(5)
            for child in herd:
                child.stdin.close()
                child.wait()
            print("HERD: let go", flush=True)
""",
    # Sleeps far past the move deadline.
    "sleeper": """
        import time
        time.sleep(60)
""",
}


def bot_source(name: str, **values: object) -> str:
    """The bot.py of bundle `name`, with PORT, SECRET_PATH, MARKER filled in."""
    source = PLAYS + BEFORE_PLAYING.get(name, "")
    if name in IN_ACT:
        source = source.replace("    def act(self, observation, legal_actions, request):\n",
                                "    def act(self, observation, legal_actions, request):\n"
                                + textwrap.indent(textwrap.dedent(IN_ACT[name]), "        "))
    for key, value in values.items():
        source = source.replace(key, repr(value) if key != "MARKER" else str(value))
    return source + "\nrun_bot(Random())\n"


def submit(engine: Engine, folder: Path, name: str, **values: object) -> None:
    """Write bundle `name` under folder and store it as a validated version."""
    bot = folder / name
    bot.mkdir(parents=True)
    (bot / "bot.py").write_text(bot_source(name, **values))
    packed, sha256, files = pack_bundle(bot)
    version = add_version(engine, name, packed, sha256, files, "python3 bot.py", [GAME])
    assert version.id is not None
    set_status(engine, version.id, VALIDATED)
