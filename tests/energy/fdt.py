# SPDX-License-Identifier: MIT
"""A flattened device tree read from its bytes (the format of the Devicetree
Specification, chapter 5), for tests that must not trust the loader they
check: nodes by path with their raw properties and the phandle map."""
import struct

FDT_BEGIN_NODE, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 1, 2, 3, 4, 9


class Node:
    def __init__(self, path, name):
        self.path, self.name, self.props, self.children = path, name, {}, []

    def cells(self, prop):
        v = self.props.get(prop)
        if v is None:
            return None
        return list(struct.unpack(">%dI" % (len(v) // 4), v[: len(v) // 4 * 4]))

    def u64s(self, prop):
        c = self.cells(prop)
        return None if c is None else [c[i] << 32 | c[i + 1] for i in range(0, len(c) - 1, 2)]


def load(path):
    data = open(path, "rb").read()
    magic, total, off_struct, off_strings = struct.unpack(">IIII", data[:16])
    if magic != 0xD00DFEED:
        raise ValueError("%s: not a device tree blob" % path)

    def string(off):
        end = data.index(b"\0", off_strings + off)
        return data[off_strings + off:end].decode()

    pos, stack, nodes = off_struct, [], {}
    while True:
        tok, = struct.unpack(">I", data[pos:pos + 4])
        pos += 4
        if tok == FDT_BEGIN_NODE:
            end = data.index(b"\0", pos)
            name = data[pos:end].decode()
            pos = (end + 4) & ~3
            parent = stack[-1] if stack else None
            path = "/" if parent is None else (parent.path.rstrip("/") + "/" + name)
            n = Node(path, name)
            if parent:
                parent.children.append(n)
            nodes[path] = n
            stack.append(n)
        elif tok == FDT_END_NODE:
            stack.pop()
        elif tok == FDT_PROP:
            length, nameoff = struct.unpack(">II", data[pos:pos + 8])
            pos += 8
            stack[-1].props[string(nameoff)] = data[pos:pos + length]
            pos = (pos + length + 3) & ~3
        elif tok == FDT_NOP:
            continue
        elif tok == FDT_END:
            break
        else:
            raise ValueError("%s: bad token %d" % (path, tok))
    phandles = {}
    for n in nodes.values():
        for p in ("phandle", "linux,phandle"):
            c = n.cells(p)
            if c:
                phandles[c[0]] = n
    return nodes, phandles
