#!/usr/bin/env python3
"""Rebuilds what a power cut could leave on disk at a point of a recorded operation.

    power_cut.py BASE RECORD POINT OUT ROOT [VARIANT]
    power_cut.py BASE RECORD POINT --variants ROOT
    power_cut.py BASE RECORD --count

BASE is the folder as it was before the operation, RECORD what `fault_shim.c` recorded
(FAULT_RECORD) while the operation ran on a copy of BASE at ROOT, POINT how many of the recorded
changes had been made when the power went (0 to --count), OUT a new folder for the result.

The model is the strict one POSIX promises: a file's bytes are sure to survive only as they were
at its last fsync (a write through a descriptor opened with O_SYNC or O_DSYNC, at once), and a
folder's entries (creations, renames, links, unlinks) as they were at the folder's last fsync.
A file never synced has the bytes it had in BASE (a new one is empty). Anything not synced may
or may not have reached the disk, file by file and folder by folder, so one point gives several
states; VARIANT picks one (--variants lists those of a point, one per line with what it keeps):

    lost            every unsynced change is lost (the default)
    kept            every change survived (what a crashed process leaves)
    only:ID         the unsynced changes of one file or folder survived, no other
    all-but:ID      every unsynced change survived but those of one file or folder

ID is `f<inode>` for a file's bytes and `d:<path>` for a folder's entries.
"""
import os
import sys


def read_record(path):
    """The recorded changes, in order: (op, args, data)."""
    changes = []
    with open(path, "rb") as record:
        while True:
            line = record.readline()
            if not line:
                break
            parts = line.rstrip(b"\n").decode().split(" ")
            op, args = parts[0], parts[1:]
            data = None
            if op in ("write", "dwrite"):
                length = int(args[2])
                data = record.read(length)
                record.read(1)
            changes.append((op, args, data))
    return changes


def patch(content, offset, data):
    if len(content) < offset:
        content.extend(b"\0" * (offset - len(content)))
    content[offset:offset + len(data)] = data


class Disk:
    """Files as inodes, so renames keep a file's identity; a live view of every change and,
    beside it, what each file and folder held at its last sync."""

    def __init__(self, base, root):
        self.root = root
        self.next_inode = 0
        self.live = {}  # path -> inode (files) or "dir"
        self.content = {}  # inode -> bytearray, live
        self.synced_content = {}  # inode -> bytes at its last fsync
        self.base_content = {}  # inode -> bytes in BASE
        self.synced_entries = {}  # folder -> {name: inode or "dir"} at its last fsync
        for folder, folders, files in os.walk(base):
            path = root + folder[len(base):]
            self.live[path] = "dir"
            for name in files:
                inode = self.new_inode()
                with open(os.path.join(folder, name), "rb") as file:
                    data = file.read()
                self.content[inode] = bytearray(data)
                self.base_content[inode] = data
                self.live[os.path.join(path, name)] = inode
        # A folder never synced keeps the entries it had, pointing at the same files.
        self.base_live = dict(self.live)

    def new_inode(self):
        self.next_inode += 1
        return self.next_inode

    def entries(self, folder):
        prefix = folder.rstrip("/") + "/"
        return {p[len(prefix):]: v for p, v in self.live.items() if p.startswith(prefix) and "/" not in p[len(prefix):]}

    def apply(self, op, args, data):
        if op == "create":
            if args[0] not in self.live:
                inode = self.new_inode()
                self.content[inode] = bytearray()
                self.live[args[0]] = inode
        elif op == "mkdir":
            self.live.setdefault(args[0], "dir")
        elif op in ("write", "dwrite"):
            inode = self.live.get(args[0])
            if isinstance(inode, int):
                offset = int(args[1])
                patch(self.content[inode], offset, data)
                if op == "dwrite":
                    # A write through O_SYNC/O_DSYNC is on the disk when it returns: these bytes
                    # only, not the file's other unsynced changes.
                    synced = bytearray(self.synced_content.get(inode, self.base_content.get(inode, b"")))
                    patch(synced, offset, data)
                    self.synced_content[inode] = bytes(synced)
        elif op == "truncate":
            inode = self.live.get(args[0])
            if isinstance(inode, int):
                length = int(args[1])
                content = self.content[inode]
                del content[length:]
                content.extend(b"\0" * (length - len(content)))
        elif op == "rename":
            source, target = args
            if source in self.live:
                self.live[target] = self.live.pop(source)
        elif op == "link":
            if args[0] in self.live:
                self.live[args[1]] = self.live[args[0]]
        elif op == "unlink":
            self.live.pop(args[0], None)
        elif op == "sync":
            inode = self.live.get(args[0])
            if inode == "dir":
                self.synced_entries[args[0]] = self.entries(args[0])
            elif isinstance(inode, int):
                self.synced_content[inode] = bytes(self.content[inode])

    def synced_entries_of(self, folder):
        if folder in self.synced_entries:
            return self.synced_entries[folder]
        # Never synced: the folder holds the entries it held in BASE.
        prefix = folder.rstrip("/") + "/"
        return {
            p[len(prefix):]: v for p, v in self.base_live.items()
            if p.startswith(prefix) and "/" not in p[len(prefix):]
        }

    def synced_bytes(self, inode):
        return self.synced_content.get(inode, self.base_content.get(inode, b""))

    def pending(self):
        """The files and folders with changes not yet synced: {ID: description}."""
        found = {}
        for path, entry in sorted(self.live.items()):
            if entry == "dir":
                if self.entries(path) != self.synced_entries_of(path):
                    found["d:" + path] = "the entries of folder " + path
        names = {}
        for folder in [p for p, v in self.live.items() if v == "dir"]:
            for name, entry in self.synced_entries_of(folder).items():
                if isinstance(entry, int):
                    names.setdefault(entry, os.path.join(folder, name))
        for path, entry in self.live.items():
            if isinstance(entry, int):
                names[entry] = path
        for inode, path in sorted(names.items()):
            if bytes(self.content[inode]) != self.synced_bytes(inode):
                found["f%d" % inode] = "the bytes of " + path
        return found

    def after_power_cut(self, out, variant="lost"):
        """Writes the surviving tree of the operation's folder into OUT."""
        pending = set(self.pending())
        if variant == "lost":
            kept = set()
        elif variant == "kept":
            kept = pending
        elif variant.startswith("only:"):
            kept = {variant[len("only:"):]} & pending
        elif variant.startswith("all-but:"):
            kept = pending - {variant[len("all-but:"):]}
        else:
            raise SystemExit("unknown variant " + variant)

        def entries_of(folder):
            return self.entries(folder) if "d:" + folder in kept else self.synced_entries_of(folder)

        def build(folder, target):
            os.makedirs(target, exist_ok=True)
            for name, entry in entries_of(folder).items():
                path, out_path = os.path.join(folder, name), os.path.join(target, name)
                if entry == "dir":
                    build(path, out_path)
                    continue
                data = bytes(self.content[entry]) if "f%d" % entry in kept else self.synced_bytes(entry)
                with open(out_path, "wb") as file:
                    file.write(data)
                os.chmod(out_path, 0o600)

        build(self.root, out)


def main():
    base, record = sys.argv[1], sys.argv[2]
    changes = read_record(record)
    if sys.argv[3] == "--count":
        print(len(changes))
        return
    point = int(sys.argv[3])
    if sys.argv[4] == "--variants":
        disk = Disk(base, sys.argv[5])
        for op, args, data in changes[:point]:
            disk.apply(op, args, data)
        pending = disk.pending()
        print("lost every unsynced change lost")
        if pending:
            print("kept every change survived")
        # With one pending item these are "kept" and "lost"; with two, each "all-but" is the
        # other's "only".
        for key, what in pending.items() if len(pending) > 1 else []:
            print("only:%s only %s survived" % (key, what))
            if len(pending) > 2:
                print("all-but:%s all but %s survived" % (key, what))
        return
    out, root = sys.argv[4], sys.argv[5]
    variant = sys.argv[6] if len(sys.argv) > 6 else "lost"
    disk = Disk(base, root)
    for op, args, data in changes[:point]:
        disk.apply(op, args, data)
    disk.after_power_cut(out, variant)


if __name__ == "__main__":
    main()
