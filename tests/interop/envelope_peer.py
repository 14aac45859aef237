#!/usr/bin/env python3
"""The envelope format (WIRE-FORMATS.md, format version 1) written from the
description with Python's `cryptography` module, as an independent peer for
tests/interop/test_envelope_python.c.

  envelope_peer.py decrypt RING DIR [AAD]  decrypts every DIR/*.msg and
      compares it with DIR/*.plain; exit 1 on the first mismatch.
  envelope_peer.py encrypt RING DIR [AAD]  writes DIR/py-N.msg and
      DIR/py-N.plain, using each key of the ring in turn.
"""
import os
import struct
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap, aes_key_wrap


def read_ring(path):
    keys = []
    for line in open(path, encoding="ascii"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key_id, hexkey = line.split()
        keys.append((key_id.encode(), bytes.fromhex(hexkey)))
    return keys


def decrypt(ring, msg, aad):
    assert msg[0:2] == b"JC" and msg[2] == 1 and msg[3] == 1, "bad header"
    (k,) = struct.unpack(">H", msg[4:6])
    key_id = msg[6:6 + k]
    (w,) = struct.unpack(">H", msg[6 + k:8 + k])
    wrapped = msg[8 + k:8 + k + w]
    nonce = msg[8 + k + w:20 + k + w]
    assert wrapped[0] == 1 and len(wrapped) == 41, "bad wrapped key"
    dek = aes_key_unwrap(ring[key_id], wrapped[1:])
    return AESGCM(dek).decrypt(nonce, msg[20 + k + w:], msg[:20 + k + w] + aad)


def encrypt(key_id, kek, plain, aad):
    dek, nonce = os.urandom(32), os.urandom(12)
    wrapped = b"\x01" + aes_key_wrap(kek, dek)
    header = (b"JC\x01\x01" + struct.pack(">H", len(key_id)) + key_id +
              struct.pack(">H", len(wrapped)) + wrapped + nonce)
    return header + AESGCM(dek).encrypt(nonce, plain, header + aad)


def main():
    mode, ring_path, folder = sys.argv[1:4]
    aad = sys.argv[4].encode() if len(sys.argv) > 4 else b""
    keys = read_ring(ring_path)
    if mode == "decrypt":
        ring = dict(keys)
        names = sorted(n for n in os.listdir(folder) if n.endswith(".msg"))
        for name in names:
            msg = open(os.path.join(folder, name), "rb").read()
            plain = open(os.path.join(folder, name[:-4] + ".plain"), "rb").read()
            if decrypt(ring, msg, aad) != plain:
                print("mismatch:", name)
                return 1
        print("python decrypted", len(names), "messages")
        return 0 if names else 1
    sizes = [0, 1, 15, 16, 104, 1000, 70000]
    for i, size in enumerate(sizes):
        key_id, kek = keys[i % len(keys)]
        plain = os.urandom(size)
        base = os.path.join(folder, "py-%d" % i)
        open(base + ".plain", "wb").write(plain)
        open(base + ".msg", "wb").write(encrypt(key_id, kek, plain, aad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
