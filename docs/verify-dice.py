#!/usr/bin/env python3
"""Recomputes fad-campaign server dice from a revealed seed, without the service.

usage: verify-dice.py SEED_HEX COMMITMENT_SHA256 FIRST_DIE DICE... [--client-seed TEXT]
e.g.   verify-dice.py 07..07 9f..4a 0 1d6 2d6 --client-seed "table 3"
"""
import hashlib, sys

def faces(seed_hex, client_seed, first_die, dice):
    key = hashlib.sha256(bytes.fromhex(seed_hex) + client_seed.encode()).digest()
    k, out = first_die, []
    for spec in dice:
        count, sides = (int(n) for n in spec.lower().split("d"))
        roll = []
        for _ in range(count):
            attempt = 0
            while True:
                h = hashlib.sha256(key + k.to_bytes(8, "big") + attempt.to_bytes(4, "big")).digest()
                x = int.from_bytes(h[:4], "big")
                if x < 2**32 - 2**32 % sides:
                    roll.append(x % sides + 1)
                    break
                attempt += 1
            k += 1
        out.append(roll)
    return out

if __name__ == "__main__":
    args, client = sys.argv[1:], ""
    if "--client-seed" in args:
        i = args.index("--client-seed"); client = args[i + 1]; del args[i:i + 2]
    seed, commitment, first, dice = args[0], args[1], int(args[2]), args[3:]
    print("commitment matches:", hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment.lower())
    for spec, values in zip(dice, faces(seed, client, first, dice)):
        print(spec, values)
