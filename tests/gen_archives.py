#!/usr/bin/env python3
"""gen_archives.py OUTDIR | --db OUTDIR V4DB...: archive fixtures for
test-archive and test-archive-open.sh.

Writes into OUTDIR:
  ok.tar ok.tar.gz ok.tgz ok.tar.xz ok.tar.zst ok.tar.bz2 ok.zip
      the same small tree (see OK_FILES) in every format;
  evil-*.tar / evil-*.zip
      hostile archives, each of which extraction must refuse;
  many.tar     10,000 small files;  long-path.tar  a 2,000-byte path;
  bomb.tar.gz  one 64 MiB file of zeros (about 64 KiB compressed);
  declared.tar a header declaring a 100 GiB file followed by 512 bytes;
  truncated.tar, truncated.tar.gz  cut halfway;  notarchive.bin  text;
  dup.tar      the same file twice (the second copy wins).
With --db and database directories, only db.tar db.tar.gz db.tgz
db.tar.xz db.tar.zst db.zip holding the first one as "NAME/", and
multi.tar.gz holding all of them under "set/".

The outside targets of the hostile links and paths are OUTDIR/outside
(a directory) and OUTDIR/abs-target: neither may be written."""
import io
import os
import subprocess
import sys
import tarfile
import zipfile

OK_FILES = {
    "db/meta.db": b"META" * 3,
    "db/profile.db": b"PROF" * 1000,
    "db/src/a.c": b"int x;\n",
    "./notes.txt": b"notes\n",
}


def add_file(tar, name, data, **kw):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o4777  # setuid and world-writable: must not be kept
    for k, v in kw.items():
        setattr(info, k, v)
    tar.addfile(info, io.BytesIO(data))


def add_dir(tar, name):
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = 0o777
    tar.addfile(info)


def add_special(tar, name, kind, linkname=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    tar.addfile(info)


def write_tar(path, fill, mode="w"):
    with tarfile.open(path, mode, format=tarfile.GNU_FORMAT) as tar:
        fill(tar)


def ok_tree(tar):
    add_dir(tar, "db/")
    for name, data in OK_FILES.items():
        add_file(tar, name, data)


def zstd(src, dst):
    subprocess.run(["zstd", "-q", "-f", "-o", dst, src], check=True)


def ok_archives(out):
    write_tar(f"{out}/ok.tar", ok_tree)
    write_tar(f"{out}/ok.tar.gz", ok_tree, "w:gz")
    write_tar(f"{out}/ok.tgz", ok_tree, "w:gz")
    write_tar(f"{out}/ok.tar.xz", ok_tree, "w:xz")
    write_tar(f"{out}/ok.tar.bz2", ok_tree, "w:bz2")
    zstd(f"{out}/ok.tar", f"{out}/ok.tar.zst")
    with zipfile.ZipFile(f"{out}/ok.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("db/", b"")
        for name, data in OK_FILES.items():
            z.writestr(name.removeprefix("./"), data)


def evil_archives(out):
    outside = f"{out}/outside"
    os.makedirs(outside, exist_ok=True)
    cases = {
        "dotdot": lambda t: add_file(t, "../evil", b"x"),
        "dotdot-mid": lambda t: (add_file(t, "ok", b"x"),
                                 add_file(t, "a/../../evil", b"x")),
        "abs": lambda t: add_file(t, f"{out}/abs-target", b"x"),
        "abs-etc": lambda t: add_file(t, "/etc/x", b"x"),
        "symlink-root": lambda t: add_special(t, "root", tarfile.SYMTYPE,
                                              "/"),
        "symlink-then-file": lambda t: (
            add_special(t, "s", tarfile.SYMTYPE, outside),
            add_file(t, "s/pwned", b"x")),
        "symlink-rel": lambda t: add_special(t, "up", tarfile.SYMTYPE,
                                             "../../outside"),
        "hardlink-out": lambda t: add_special(t, "h", tarfile.LNKTYPE,
                                              f"{out}/abs-target"),
        "hardlink-dotdot": lambda t: add_special(t, "h", tarfile.LNKTYPE,
                                                 "../outside/x"),
        "device": lambda t: add_special(t, "null", tarfile.CHRTYPE),
        "blockdev": lambda t: add_special(t, "disk", tarfile.BLKTYPE),
        "fifo": lambda t: add_special(t, "pipe", tarfile.FIFOTYPE),
        "file-then-dir": lambda t: (add_file(t, "x", b"x"),
                                    add_file(t, "x/y", b"y")),
        "dir-then-file": lambda t: (add_dir(t, "d/"),
                                    add_file(t, "d", b"x")),
    }
    for name, fill in cases.items():
        write_tar(f"{out}/evil-{name}.tar", fill)
    with zipfile.ZipFile(f"{out}/evil-dotdot.zip", "w") as z:
        z.writestr("ok.txt", b"x")
        z.writestr("../zipevil", b"x")
    with zipfile.ZipFile(f"{out}/evil-symlink.zip", "w") as z:
        info = zipfile.ZipInfo("link")
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        z.writestr(info, outside)


def big_archives(out):
    def many(t):
        for i in range(10000):
            add_file(t, f"many/f{i:05d}", b"%d\n" % i)
    write_tar(f"{out}/many.tar", many)

    def long_path(t):
        add_file(t, "/".join(["d" * 99] * 20), b"x")
    write_tar(f"{out}/long-path.tar", long_path)

    class Zeros(io.RawIOBase):
        def __init__(self, n):
            self.left = n

        def readable(self):
            return True

        def readinto(self, b):
            k = min(len(b), self.left)
            b[:k] = bytes(k)
            self.left -= k
            return k
    with tarfile.open(f"{out}/bomb.tar.gz", "w:gz",
                      compresslevel=9) as tar:
        info = tarfile.TarInfo("zeros")
        info.size = 64 << 20
        tar.addfile(info, io.BufferedReader(Zeros(info.size)))

    info = tarfile.TarInfo("huge")
    info.size = 100 << 30
    with open(f"{out}/declared.tar", "wb") as f:
        f.write(info.tobuf(format=tarfile.GNU_FORMAT))
        f.write(b"x" * 512)
        f.write(bytes(1024))

    for src in ("ok.tar", "ok.tar.gz"):
        data = open(f"{out}/{src}", "rb").read()
        dst = src.replace("ok.", "truncated.")
        open(f"{out}/{dst}", "wb").write(data[: len(data) // 2])
    open(f"{out}/notarchive.bin", "wb").write(
        b"This is not an archive, only text.\n" * 40)

    def dup(t):
        add_file(t, "f", b"first")
        add_file(t, "f", b"second copy")
    write_tar(f"{out}/dup.tar", dup)


def db_archives(out, dbs):
    first = dbs[0].rstrip("/")
    base = os.path.basename(first)
    parent = os.path.dirname(os.path.abspath(first))

    def one(t):
        t.add(first, arcname=base)
    write_tar(f"{out}/db.tar", one)
    write_tar(f"{out}/db.tar.gz", one, "w:gz")
    write_tar(f"{out}/db.tgz", one, "w:gz")
    write_tar(f"{out}/db.tar.xz", one, "w:xz")
    zstd(f"{out}/db.tar", f"{out}/db.tar.zst")
    with zipfile.ZipFile(f"{out}/db.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for root, dirs, files in os.walk(first):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(root, f)
                z.write(p, os.path.relpath(p, parent))

    def multi(t):
        for db in dbs:
            t.add(db.rstrip("/"),
                  arcname="set/" + os.path.basename(db.rstrip("/")))
    write_tar(f"{out}/multi.tar.gz", multi, "w:gz")


def main():
    if len(sys.argv) == 2:
        os.makedirs(sys.argv[1], exist_ok=True)
        ok_archives(sys.argv[1])
        evil_archives(sys.argv[1])
        big_archives(sys.argv[1])
    elif len(sys.argv) > 3 and sys.argv[1] == "--db":
        os.makedirs(sys.argv[2], exist_ok=True)
        db_archives(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
