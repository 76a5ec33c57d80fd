"""Where outputs are written: the overwrite policy, the lock, shards and resume, atomic placing.

**Policy.** cardsim deletes only what it created itself. An output path that exists is refused
(UsageError, exit 2) unless ``overwrite`` is given, and then only a previous cardsim output of
the same kind is replaced; anything else is refused. An existing *empty* directory counts as
free (nothing in it can be lost); the current directory, or one above it, is never an output.
Links are neither replaced nor written through. How a previous output is recognised
(``recognise``):

* run file (``run --out FILE``): a regular Parquet file whose footer has ``cardsim`` metadata
  without a ``kind`` (the part files of a dataset have one);
* compare / sweep dataset (``--out DIR``): a directory with a ``_summary.json`` whose ``meta``
  has that ``kind``, and nothing else but ``point-K/`` folders of ``part-N.parquet`` files;
* report (``report --out DIR``): a directory with a ``report.md`` whose first line is
  ``# cardsim report: ...``, and nothing else but ``.png`` files.

**Work directory and lock.** Writing ``OUT`` uses the sibling directory ``.OUT.work/``: it holds
``lock`` (an exclusive ``flock`` taken for the whole run, with ``PID HOST`` of the holder in it;
the kernel drops it when the process dies, so a killed run never leaves a stale lock), and for
run/compare/sweep ``run.json`` (the run's deterministic metadata and shard layout) and one
``shard-<first deal>.parquet`` per finished shard, each written under a temporary name and
renamed, so a shard file exists only when complete. A second run on the same ``OUT`` finds the
lock taken and is refused with the holder's process id. A work directory that is a link, a file
of that name, or one holding files cardsim does not write there, is refused.

**Shards and resume.** Every shard carries its run key in its Parquet footer (``cardsim.shard``:
``{"run": sha256 of run.json's text, "first": F, "count": C}``). ``--resume`` uses a stored shard
only if that key is this run's and its rows are the deals F..F+C-1; any other shard (another
seed's, zero-length, torn, garbage) is played again and overwritten, never trusted, and never a
reason to drop the other shards. ``run.json`` of other arguments refuses the resume (exit 2)
and leaves the work directory as it was; a missing or unreadable ``run.json`` does not matter,
since every shard is checked on its own. Without ``--resume`` the stored shards are removed first.

**Identity: what readers check.** Every part file of a compare/sweep dataset
(``point-K/part-N.parquet``) carries in its footer the dataset's whole metadata (``cardsim``, as
in ``_summary.json``) and its identity (``cardsim.part``: ``{"run": sha256 of the metadata as
canonical JSON, "point": K, "first": F, "deals": N}``, ``io.part_tag``), so the metadata's game,
rules version, seed, players, first deal, deal count, options, seats, lineups and points all
enter it. A tune dataset's ``evaluations.parquet`` carries ``{"run": ...}`` alike. A run file is
one file: its footer's metadata is its identity. Every reader (``summarize``, ``report``,
``replay FILE|DIR``, and through them the Python API: ``cardsim.replay``, ``Result.report``)
checks before it believes a number:

* the metadata's values, with the command line's own validators (``io.check_meta``: a known
  game and player count, seed 0 .. 2**63-1, whole ``first_deal``/``deals``/``rules_version`` >= 0
  whose deal ids fit an int64; JSON nested too deeply to parse is unreadable metadata, never a
  RecursionError); a replayed seat's parameters within their ranges;
* a run file's rows are the deals its metadata names (``io.check_run_rows``: the row count, the
  first and last ``deal_id``), so a forged ``first_deal`` is refused, not replayed;
* a dataset's parts (``io.check_parts``): each readable (a truncated one is named), its footer
  metadata the dataset's (a part of another run is named, with the field that differs: "seed 9,
  not the dataset's 1"), its tag this dataset's identity and its folder's point (parts swapped
  between ``point-1`` and ``point-2`` are refused), its rows that point's and the dataset's deals,
  every lineup of every deal present; a tune dataset's evaluations its own (``tune_report``).

Each refusal is one ``Error:`` line naming the file, exit 2. **Files written before identities**
(no ``cardsim.part`` in a part's footer) are still read: a part is accepted when its footer
metadata equals the dataset's and its rows (the ``point`` and ``deal_id`` columns, from the
Parquet statistics) are its folder's point and the dataset's deals. That is what the tag would
have told, except for a hand-made copy of another dataset's metadata, which no check without a
secret could tell anyway. Work shards carry the run key (below): ``--resume`` plays a foreign one
again rather than refusing the resume, since the run can still be completed exactly.

**Placing.** The final output is written beside its path as ``.OUT.partial-XXXXXXXX`` (the
shards merged, or the report drawn) and renamed onto ``OUT``: a new file is linked into place
(which fails rather than replace a file that appeared meanwhile), a new directory is renamed; a
previous output is checked again and then replaced by ``rename`` (file) or an atomic exchange
of the two directories (``renameat2(RENAME_EXCHANGE)``; two renames where the system lacks it)
before the old one is deleted. The next run on ``OUT`` removes the litter a kill can leave
(``.OUT.partial-*`` and ``.OUT.old-*`` directories holding only cardsim output files; the work
directory's temporary files) once it holds the lock.

**Failures.** An interrupted run (Ctrl-C, SIGKILL) keeps its work directory for ``--resume``. A
failed one (a check error, a full disk) removes what it wrote (shards, run.json, partial
output, lock, the work directory) and says what it kept; an OSError while writing becomes an
OutputError (exit 1) naming the cause, e.g. "no space left on device". That holds from the
first byte (a disk full from the start: the lock file cannot be written, and the lock and the
work directory the slot made are removed again) to the last, and for ``tune --out`` too.
"""
from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from cardsim.sim.errors import OutputError, UsageError
from cardsim.sim.io import META_KEY, PART_KEY, SUMMARY_FILE, TIMING_KEY, check_output_path, load_json, part_tag

try:
    import fcntl
except ImportError:                     # not POSIX: no lock (documented in the README)
    fcntl = None

SHARD_KEY = b"cardsim.shard"
LOCK_NAME = "lock"
REPORT_NAME = "report.md"
REPORT_HEAD = "# cardsim report: "
KINDS = {"run": "run file", "compare": "compare dataset", "sweep": "sweep dataset", "report": "report directory",
         "tune": "tune dataset", "critique": "critique directory"}
DIR_KINDS = ("compare", "sweep", "report", "tune", "critique")
CRITIQUE_FILES = ("part-0.parquet", "critique.md", "regret_by_kind.png")
TUNE_FILE = "evaluations.parquet"

_SHARD = re.compile(r"shard-\d+\.parquet")
_WORK_TEMP = re.compile(r"\.shard-\d+\.parquet\.[A-Za-z0-9_]+|run\.json\.tmp")
_POINT_DIR = re.compile(r"point-\d+")
DATASET_WRITERS = 64
_PART = re.compile(r"part-\d+\.parquet")
_PNG = re.compile(r"[A-Za-z0-9_.=-]+\.png")
_LITTER = re.compile(r"(partial|old)-[A-Za-z0-9_]{8}")
_OUTPUT_FILE = re.compile(r"merged\.parquet|_summary\.json|part-\d+\.parquet|report\.md|evaluations\.parquet|critique\.md|"
                          r"[A-Za-z0-9_.=-]+\.png")


# ---- recognising outputs -------------------------------------------------------------

def recognise(path: Path) -> tuple[str | None, str | None]:
    """(kind, None) when ``path`` is a previous cardsim output of that kind ("run", "compare",
    "sweep", "report"); else (None, why not, as a phrase)."""
    if path.is_symlink():
        return None, "it is a symbolic link"
    if path.is_file():
        return _recognise_file(path)
    if path.is_dir():
        if (path / SUMMARY_FILE).is_file():
            return _recognise_dataset(path)
        if (path / REPORT_NAME).is_file():
            return _recognise_report(path)
        names = sorted(os.listdir(path))
        if names:
            return None, f"it holds {names[0]!r}, which cardsim did not write"
        return None, "it is an empty directory"
    return None, "it is neither a regular file nor a directory"


def _recognise_file(path: Path):
    try:
        kv = pq.ParquetFile(path).metadata.metadata or {}
    except Exception:  # noqa: BLE001 - whatever pyarrow makes of it, it is not a cardsim file
        return None, "it is not a Parquet file"
    if META_KEY not in kv:
        return None, "a Parquet file with no cardsim metadata"
    try:
        meta = load_json(kv[META_KEY])
    except (ValueError, UnicodeDecodeError):
        return None, "its cardsim metadata is unreadable"
    if not isinstance(meta, dict):
        return None, "its cardsim metadata is unreadable"
    if meta.get("kind") is not None:
        return None, f"it is one part of a cardsim {meta['kind']} dataset"
    return "run", None


def _recognise_dataset(path: Path):
    try:
        meta = load_json((path / SUMMARY_FILE).read_text())["meta"]
        kind = meta["kind"]
    except (OSError, ValueError, UnicodeDecodeError, KeyError, TypeError):
        return None, f"its {SUMMARY_FILE} is unreadable"
    if kind == "tune":
        for entry in sorted(os.scandir(path), key=lambda e: e.name):
            if not (entry.name in (SUMMARY_FILE, TUNE_FILE) and entry.is_file(follow_symlinks=False)):
                return None, f"it holds {entry.name!r}, which cardsim did not write"
        return kind, None
    if kind == "critique":
        for entry in sorted(os.scandir(path), key=lambda e: e.name):
            if not (entry.name in (SUMMARY_FILE, *CRITIQUE_FILES) and entry.is_file(follow_symlinks=False)):
                return None, f"it holds {entry.name!r}, which cardsim did not write"
        return kind, None
    if kind not in ("compare", "sweep"):
        return None, f"its {SUMMARY_FILE} names no compare or sweep dataset"
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        if entry.name == SUMMARY_FILE and entry.is_file(follow_symlinks=False):
            continue
        if not (_POINT_DIR.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)):
            return None, f"it holds {entry.name!r}, which cardsim did not write"
        for sub in sorted(os.scandir(entry.path), key=lambda e: e.name):
            if not (_PART.fullmatch(sub.name) and sub.is_file(follow_symlinks=False)):
                return None, f"it holds {entry.name + '/' + sub.name!r}, which cardsim did not write"
    return kind, None


def _recognise_report(path: Path):
    try:
        with open(path / REPORT_NAME, encoding="utf-8") as f:
            head = f.readline()
    except (OSError, UnicodeDecodeError):
        head = ""
    if not head.startswith(REPORT_HEAD):
        return None, f"its {REPORT_NAME} is not a cardsim report"
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        if entry.name == REPORT_NAME and entry.is_file(follow_symlinks=False):
            continue
        if not (_PNG.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)):
            return None, f"it holds {entry.name!r}, which cardsim did not write"
    return "report", None


def _only_output_files(d: Path) -> bool:
    """Whether directory ``d`` holds nothing but files cardsim writes into an output (and
    ``point-K`` folders of them): the test before litter is deleted."""
    for dirpath, dirnames, filenames in os.walk(d):
        for name in dirnames:
            if not _POINT_DIR.fullmatch(name) or os.path.islink(os.path.join(dirpath, name)):
                return False
        for name in filenames:
            full = os.path.join(dirpath, name)
            if not _OUTPUT_FILE.fullmatch(name) or os.path.islink(full) or not os.path.isfile(full):
                return False
    return True


# ---- the policy ----------------------------------------------------------------------

def check_output(out, kind: str, overwrite: bool = False) -> bool:
    """Refuse (UsageError, one line) an output path cardsim may not write as ``kind``; nothing
    is created. Returns True when a previous cardsim output of that kind will be replaced."""
    out = Path(out)
    if kind == "run":
        check_output_path(out)
    elif kind in ("compare", "sweep", "tune", "critique"):
        check_dataset_path(out)
    if kind in DIR_KINDS:
        _refuse_cwd(out)
    if out.is_symlink():
        raise UsageError(f"output {str(out)!r} is a symbolic link; cardsim neither replaces links nor writes "
                         "through them: give another --out")
    if not out.exists():
        return False
    if kind in DIR_KINDS and out.is_dir() and not os.listdir(out):
        return False                     # an empty directory: nothing in it to lose
    word = KINDS[kind]
    if not overwrite:
        raise UsageError(f"output {str(out)!r} exists; pass --overwrite to replace it (only a previous cardsim "
                         f"{word} is replaced)")
    found, why = recognise(out)
    if found != kind:
        why = f"it is a cardsim {KINDS[found]}" if found else why
        raise UsageError(f"--overwrite: {str(out)!r} is not a previous cardsim {word} ({why}); nothing was replaced")
    return True


def check_dataset_path(p: Path) -> None:
    if p.exists() and not p.is_dir():
        raise UsageError(f"output {str(p)!r} exists and is not a directory; give a directory name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"cannot write {str(p)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {str(p)!r}: permission denied")


def _refuse_cwd(out: Path) -> None:
    try:
        here, target = Path.cwd().resolve(), out.resolve()
    except OSError:
        return
    if target == here or target in here.parents:
        raise UsageError(f"cannot write the output to {str(out)!r}: it is the current directory (or holds it); "
                         "give a new directory name")


def why_failed(exc: OSError) -> str:
    """The cause of an OSError in a few words ("no space left on device", ...)."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code == errno.ENOSPC or "No space left" in text:
        return "no space left on device"
    if code == errno.EDQUOT or "quota exceeded" in text.lower():
        return "disk quota exceeded"
    if getattr(exc, "strerror", None):
        return exc.strerror[0].lower() + exc.strerror[1:]
    return text.splitlines()[0] if text else exc.__class__.__name__


# ---- the right to write one output ------------------------------------------------------

class OutputSlot:
    """One output being written: checked against the policy, locked, litter cleaned.

    ``replace`` tells whether a previous output of the kind will be replaced. ``partial()``
    gives a fresh ``.OUT.partial-*`` directory beside the output, ``place(path)`` moves the
    finished output there, ``remove_work()`` drops the work directory (own files only),
    ``unlock()`` just gives up the lock (an interrupted run keeps its work directory)."""

    def __init__(self, out, kind: str, overwrite: bool = False):
        self.out = Path(out)
        self.kind = kind
        self.overwrite = overwrite
        self.replace = check_output(self.out, kind, overwrite)
        self.work = self.out.parent / f".{self.out.name}.work"
        self._fd = None
        self._created_work = False
        try:
            self._open_work()
        except BaseException:
            self.abandon()               # a full disk from the start: no work directory, no lock left
            raise
        try:
            self.replace = check_output(self.out, kind, overwrite)   # again: now no other cardsim writes it
            self._clean_litter()
        except BaseException:
            self.abandon()
            raise

    # -- the work directory and its lock

    def _open_work(self) -> None:
        w = self.work
        if w.is_symlink():
            raise UsageError(f"the work directory {str(w)!r} is a symbolic link; cardsim does not write through "
                             "links: remove it or choose another --out")
        if w.exists() and not w.is_dir():
            raise UsageError(f"a file named {str(w)!r} is in the way: cardsim keeps an unfinished run's shards in "
                             "that directory; move it away or choose another --out")
        if w.is_dir():
            self._refuse_foreign()
        self._mkdir_work()
        self._lock()

    def _refuse_foreign(self) -> None:
        for entry in sorted(os.scandir(self.work), key=lambda e: e.name):
            own = entry.name == LOCK_NAME or entry.name == "run.json" or _SHARD.fullmatch(entry.name) \
                or _WORK_TEMP.fullmatch(entry.name)
            if not (own and entry.is_file(follow_symlinks=False)):
                raise UsageError(f"the work directory {str(self.work)!r} holds {entry.name!r}, which cardsim did not "
                                 "write; move it away or choose another --out")

    def _mkdir_work(self) -> None:
        try:
            self.work.mkdir()
            self._created_work = True
        except FileExistsError:
            pass
        except OSError as exc:      # before anything is played: the --out given cannot be written there
            raise UsageError(f"--out cannot be written: the work directory {str(self.work)!r} cannot be created "
                             f"({why_failed(exc)}); choose another --out") from None

    def _lock(self) -> None:
        if fcntl is None:
            return
        path = self.work / LOCK_NAME
        for _ in range(100):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except FileNotFoundError:    # the run that held it finished and removed the work directory
                self._mkdir_work()
                continue
            except OSError as exc:
                raise OutputError(f"cannot create the lock file {str(path)!r}: {why_failed(exc)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder(fd)
                os.close(fd)
                raise UsageError(f"another cardsim run ({holder}) is writing {str(self.out)!r}; wait for it to "
                                 "finish or choose another --out") from None
            try:                         # is the file we locked still the one at the path?
                st, mine = os.stat(path), os.fstat(fd)
                same = (st.st_ino, st.st_dev) == (mine.st_ino, mine.st_dev)
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd            # ours now: removed with the work directory if writing it fails
                try:
                    os.ftruncate(fd, 0)
                    os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
                except OSError as exc:
                    raise OutputError(f"{why_failed(exc)}: cannot write the lock file {str(path)!r}; nothing was "
                                      "written") from None
                return
            os.close(fd)
        raise OutputError(f"cannot take the lock {str(path)!r}: it keeps changing")

    def unlock(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def abandon(self) -> None:
        """Give up before anything was written: unlock; a work directory this slot created is removed."""
        if self._created_work:
            self.remove_work()
        else:
            self.unlock()

    def remove_work(self) -> list[str]:
        """Remove cardsim's files from the work directory (shards, run.json, temporary files, the
        lock) and the directory itself; returns the names of anything else, which is kept."""
        kept = []
        try:
            entries = sorted(os.scandir(self.work), key=lambda e: e.name)
        except FileNotFoundError:
            entries = []
        for entry in entries:
            if entry.name == LOCK_NAME:
                continue
            own = entry.name == "run.json" or _SHARD.fullmatch(entry.name) or _WORK_TEMP.fullmatch(entry.name)
            if own and entry.is_file(follow_symlinks=False):
                _unlink(entry.path)
            else:
                kept.append(entry.name)
        lock = self.work / LOCK_NAME
        if self._fd is not None:         # only the lock this slot holds (never a newer run's)
            try:
                st, mine = os.stat(lock), os.fstat(self._fd)
                if (st.st_ino, st.st_dev) == (mine.st_ino, mine.st_dev):
                    lock.unlink()
            except FileNotFoundError:
                pass
        self.unlock()
        try:
            self.work.rmdir()
        except OSError:
            pass                         # something kept (or a new run's lock): the directory stays
        return kept

    def _clean_litter(self) -> None:
        """Remove what a killed run on this output can leave: ``.OUT.partial-*`` (an unfinished
        merge or report) and ``.OUT.old-*`` (a replaced output not yet deleted; only once the output
        is in place) holding only cardsim output files, and the work directory's temporary files."""
        prefix = f".{self.out.name}."
        parent = self.out.parent if str(self.out.parent) else Path(".")
        for entry in os.scandir(parent):
            rest = entry.name[len(prefix):] if entry.name.startswith(prefix) else ""
            if not _LITTER.fullmatch(rest) or not entry.is_dir(follow_symlinks=False):
                continue
            if rest.startswith("old-") and not self.out.exists():
                continue                 # the only copy of the previous output: keep it
            if _only_output_files(Path(entry.path)):
                shutil.rmtree(entry.path, ignore_errors=True)
        for entry in os.scandir(self.work):
            if _WORK_TEMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                _unlink(entry.path)

    # -- the output

    def partial(self) -> Path:
        """A new hidden ``.OUT.partial-XXXXXXXX`` directory beside the output, made with the
        normal permissions (0o777 less the umask, as ``mkdir`` gives; ``tempfile.mkdtemp``'s
        0o700 would stay on a dataset or report directory once it is renamed into place)."""
        parent = self.out.parent if str(self.out.parent) else Path(".")
        for _ in range(100):
            path = parent / f".{self.out.name}.partial-{secrets.token_hex(4)}"
            try:
                os.mkdir(path, 0o777)
            except FileExistsError:
                continue
            return path
        raise FileExistsError(errno.EEXIST, "no free name for a partial output", str(parent))

    def place(self, src: Path) -> None:
        """Move the finished output ``src`` (beside the output path) onto it, atomically."""
        out = self.out
        if self.replace and os.path.lexists(out):
            found, why = recognise(out)
            if found != self.kind:
                why = f"it is a cardsim {KINDS[found]}" if found else why
                raise UsageError(f"--overwrite: {str(out)!r} changed during the run and is not a previous cardsim "
                                 f"{KINDS[self.kind]} any more ({why}); nothing was replaced")
            if src.is_dir():
                old = _exchange(src, out)
                shutil.rmtree(old, ignore_errors=True)        # the previous output, checked just above
            else:
                os.replace(src, out)
            return
        appeared = UsageError(f"output {str(out)!r} appeared during the run; nothing was replaced (pass "
                              "--overwrite to replace a previous cardsim output)")
        if src.is_dir():
            if os.path.lexists(out) and not (out.is_dir() and not out.is_symlink() and not os.listdir(out)):
                raise appeared
            try:
                os.rename(src, out)                            # onto nothing, or an empty directory
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                    raise appeared from None
                raise
            return
        try:
            os.link(src, out)                                  # fails if anything is there now
        except FileExistsError:
            raise appeared from None
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise
            if os.path.lexists(out):                           # no hard links on this file system
                raise appeared from None
            os.rename(src, out)
            return
        os.unlink(src)


def _holder(fd: int) -> str:
    """'process PID' (and its host when not this one) from a lock file's contents."""
    text = ""
    for _ in range(20):                   # the holder writes its id right after taking the lock
        try:
            text = os.pread(fd, 256, 0).decode(errors="replace").strip()
        except OSError:
            break
        if text:
            break
        time.sleep(0.05)
    parts = text.split()
    if not parts or not parts[0].isdigit():
        return "process id unknown"
    host = parts[1] if len(parts) > 1 else None
    return f"process {parts[0]}" + (f" on host {host}" if host and host != socket.gethostname() else "")


def _exchange(new: Path, out: Path) -> Path:
    """Put directory ``new`` at ``out``; returns where the previous ``out`` now is."""
    if _rename_exchange(new, out):
        return new
    aside = out.parent / f".{out.name}.old-{secrets.token_hex(4)}"
    os.rename(out, aside)
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(aside, out)
        raise
    return aside


def _rename_exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _unlink(path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


# ---- shards -------------------------------------------------------------------------------

class ShardStore:
    """The shards of one run or experiment writing ``out``, and its final merge."""

    def __init__(self, out: str | os.PathLike, meta: dict, resume: bool = False, dataset: bool = False,
                 layout: dict | None = None, overwrite: bool = False):
        self.out = Path(out)
        self.dataset = dataset
        self.meta = meta
        self.slot = OutputSlot(self.out, meta.get("kind", "compare") if dataset else "run", overwrite)
        self.work = self.slot.work
        # run.json: the metadata plus the shard layout (shard sizes decide which deals a shard holds)
        meta_text = json.dumps({"meta": meta, "layout": layout or {}}, sort_keys=True)
        self.key = hashlib.sha256(meta_text.encode()).hexdigest()
        try:
            old = _read_run_json(self.work / "run.json")
            if resume and old is not None and old != meta_text:
                raise UsageError(f"cannot resume into {str(self.out)!r}: the interrupted run in "
                                 f"{str(self.work)!r} {_what_differs(old, meta)}; rerun without --resume to "
                                 "start over")
            if not resume:
                for entry in os.scandir(self.work):
                    if _SHARD.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        _unlink(entry.path)
            _atomic_write_text(self.work / "run.json", meta_text)
        except UsageError:
            self.slot.abandon()
            raise
        except OSError as exc:
            raise OutputError(f"{why_failed(exc)} while starting to write {str(self.out)!r}; "
                              f"{self.discard()}") from None

    def shard_path(self, first: int) -> Path:
        return self.work / f"shard-{first:015d}.parquet"

    def _tag(self, first: int, count: int) -> dict:
        return {"run": self.key, "first": int(first), "count": int(count)}

    def usable(self, first: int, count: int) -> bool:
        """Whether the stored shard of deals first..first+count-1 is this run's (its footer's key)."""
        try:
            md = pq.read_metadata(self.shard_path(first))
            tag = json.loads((md.metadata or {})[SHARD_KEY])
        except Exception:  # noqa: BLE001 - missing, zero-length, torn, foreign: not usable
            return False
        return tag == self._tag(first, count) and (md.num_rows == 0) == (count == 0)

    def read(self, first: int, count: int) -> pa.Table | None:
        """The stored shard, or None when it does not read back whole (it is then played again)."""
        try:
            table = pq.read_table(self.shard_path(first))
            ids = table.column("deal_id")
            if count and (pc.min(ids).as_py() != first or pc.max(ids).as_py() != first + count - 1):
                return None
        except Exception:  # noqa: BLE001
            return None
        return table

    def write(self, first: int, count: int, table: pa.Table) -> None:
        path = self.shard_path(first)
        table = table.replace_schema_metadata({SHARD_KEY: json.dumps(self._tag(first, count), sort_keys=True)})
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=self.work)
            os.close(fd)
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, path)
        except OSError as exc:
            raise OutputError(f"{why_failed(exc)} while writing a shard of {str(self.out)!r}") from None
        finally:
            if tmp is not None:
                _unlink(tmp)

    def close(self) -> None:
        """Give up the lock (the work directory stays: an interrupted run resumes from it)."""
        self.slot.unlock()

    def discard(self) -> str:
        """Remove the run's own files (a failed run); returns what was removed and kept, in words."""
        kept = self.slot.remove_work()
        keep = []
        if self.slot.replace:
            keep.append(f"the previous {str(self.out)!r} unchanged")
        if kept:
            keep.append(", ".join(map(repr, kept)) + f" in {str(self.work)!r} (not cardsim's)")
        return "removed the unfinished run's files, kept " + (" and ".join(keep) or "nothing")

    def finish(self, firsts: list[int], timing: dict, partition: str | None = None,
               extra_files: dict[str, bytes] | None = None) -> Path:
        """Merge the listed shards (in order) into the output, atomically; drop the work dir."""
        kv = {META_KEY: json.dumps(self.meta, sort_keys=True), TIMING_KEY: json.dumps(timing, sort_keys=True)}
        try:
            tmp = self.slot.partial()
            try:
                if self.dataset:
                    # every part names the dataset (its identity), its point and its deal range
                    _write_dataset(tmp, [self.shard_path(f) for f in firsts], partition, kv,
                                   lambda v: {**kv, PART_KEY: json.dumps(part_tag(self.meta, v), sort_keys=True)})
                    for name, data in (extra_files or {}).items():
                        (tmp / name).write_bytes(data)
                    self.slot.place(tmp)
                else:
                    _merge_file(tmp / "merged.parquet", [self.shard_path(f) for f in firsts], kv)
                    self.slot.place(tmp / "merged.parquet")
            finally:
                shutil.rmtree(tmp, ignore_errors=True)     # what is left of it (nothing once placed)
        except UsageError:
            raise                                          # the output appeared meanwhile: shards kept
        except OSError as exc:
            raise OutputError(f"{why_failed(exc)} while merging the shards into {str(self.out)!r}; "
                              f"{self.discard()}") from None
        except Exception as exc:
            exc.cleanup = self.discard()
            raise
        self.slot.remove_work()
        return self.out


def _what_differs(old_text: str, meta: dict) -> str:
    """Why an interrupted run's ``run.json`` is not this run's, as a phrase: the plug-ins whose
    code changed since (their digests in ``meta["plugins"]``), else "used other arguments"."""
    try:
        before = json.loads(old_text)["meta"].get("plugins") or {}
    except (ValueError, KeyError, AttributeError, TypeError, RecursionError):
        before = {}
    changed = [label for label, code in (meta.get("plugins") or {}).items()
               if label in before and before[label] != code]
    if changed:
        return f"ran other code: plug-in {', '.join(changed)} has changed since"
    return "used other arguments"


def _read_run_json(path: Path) -> str | None:
    """run.json's text, or None when it is missing or unreadable (every shard is checked anyway)."""
    try:
        text = path.read_text()
        doc = load_json(text)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return text if isinstance(doc, dict) and "meta" in doc else None


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        _unlink(tmp)


def _merge_file(target: Path, shards: list[Path], kv: dict) -> None:
    """Concatenate shard files (row groups in order) into one Parquet file, streaming."""
    writer = None
    try:
        for path in shards:
            pf = pq.ParquetFile(path)
            for i in range(pf.num_row_groups):
                table = pf.read_row_group(i)
                if writer is None:
                    writer = pq.ParquetWriter(target, table.schema.with_metadata(kv), compression="zstd")
                writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
    finally:
        if writer is not None:
            writer.close()


def _write_dataset(target: Path, shards: list[Path], partition: str | None, kv: dict, kv_of=None) -> None:
    """A dataset directory from the shard files: one ``{partition}-{value}/`` folder per value
    (``point-3/``) of ``part-0.parquet`` files that keep the column, so that pandas, polars and
    DuckDB read it as an integer (hive ``key=value`` folders would make it a category); rows keep
    the shards' order. Without ``partition`` the part file lies in ``target`` itself. Writers are
    opened in blocks of DATASET_WRITERS so a large sweep never holds too many files open.
    ``kv_of(value)``: the footer of value's part (default ``kv``)."""
    target.mkdir(parents=True, exist_ok=True)
    if not shards:
        return
    schema = pq.read_schema(shards[0]).with_metadata(kv)
    if partition is None:
        with pq.ParquetWriter(target / "part-0.parquet", schema) as w:
            for shard in shards:
                w.write_table(pq.read_table(shard).replace_schema_metadata(kv), row_group_size=1 << 18)
        return
    values = sorted({v for shard in shards for v in pq.read_table(shard, columns=[partition])[partition].unique().to_pylist()})
    for i in range(0, len(values), DATASET_WRITERS):
        block = values[i:i + DATASET_WRITERS]
        writers = {}
        try:
            for shard in shards:
                table = pq.read_table(shard, filters=[(partition, "in", block)]).replace_schema_metadata(kv)
                for v in block:
                    rows = table.filter(pc.equal(table[partition], v))
                    if rows.num_rows:
                        if v not in writers:
                            (target / f"{partition}-{v}").mkdir()
                            writers[v] = pq.ParquetWriter(target / f"{partition}-{v}" / "part-0.parquet",
                                                          schema.with_metadata(kv_of(v)) if kv_of else schema)
                        writers[v].write_table(rows, row_group_size=1 << 18)
        finally:
            for w in writers.values():
                w.close()