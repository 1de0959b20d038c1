#!/usr/bin/env python3
"""Rebuilds what a power cut could leave on disk at a point of a recorded operation.

    power_cut.py BASE RECORD POINT OUT ROOT

BASE is the folder as it was before the operation, RECORD what `fault_shim.c` recorded
(FAULT_RECORD) while the operation ran on a copy of BASE at ROOT, POINT how many of the recorded changes
had been made when the power went (0 to --count), OUT a new folder for the result.
`power_cut.py BASE RECORD --count` prints how many changes there are.

The model is the strict one POSIX promises: a file's bytes survive as they were at its last
fsync (a write through a descriptor opened with O_SYNC or O_DSYNC, at once), and a folder's entries (creations, renames, links, unlinks) as they were at the folder's
last fsync; anything not synced is lost, so a file created or renamed in a folder that was not
synced afterwards is not there. A file never synced keeps the bytes it had in BASE (a new one is
empty). This is the worst a file system may do, and what the backends must survive.
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

    def after_power_cut(self, base, out):
        """Writes the surviving tree of BASE's folder into OUT."""
        def entries_of(folder):
            if folder in self.synced_entries:
                return self.synced_entries[folder]
            # Never synced: the folder holds the entries it held in BASE.
            prefix = folder.rstrip("/") + "/"
            return {
                p[len(prefix):]: v for p, v in self.base_live.items()
                if p.startswith(prefix) and "/" not in p[len(prefix):]
            }

        def build(folder, target):
            os.makedirs(target, exist_ok=True)
            for name, entry in entries_of(folder).items():
                path, out_path = os.path.join(folder, name), os.path.join(target, name)
                if entry == "dir":
                    build(path, out_path)
                    continue
                data = self.synced_content.get(entry, self.base_content.get(entry, b""))
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
    point, out, root = int(sys.argv[3]), sys.argv[4], sys.argv[5]
    disk = Disk(base, root)
    for op, args, data in changes[:point]:
        disk.apply(op, args, data)
    disk.after_power_cut(base, out)


if __name__ == "__main__":
    main()
