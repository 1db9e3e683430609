"""A root given k times: torch's engine puts the first root gradient into the node's buffer, sums
the second into a new tensor (the caller holds the first) and each further one into that tensor in
place, so the gradient the node receives is at version k - 2 (k >= 3): a leaf's first ``.grad``,
what ``grad()`` returns, what a tensor hook receives.  With and without a hook in the process."""


def run(B, rec):
    log = []
    for hooked in (False, True):
        for k in (2, 3, 4):
            a = B.value(1.5, requires_grad=True)
            z = a * 1.0
            if hooked:
                z.register_hook(lambda g, k=k: log.append((k, g._version)))
            B.backward([z] * k)
            rec(f"backward([a*1]*{k}) hooked={hooked}", [a.grad, a.grad._version])
            a.grad = None
            B.backward([a] * k)
            rec(f"backward([a]*{k}) hooked={hooked}", [a.grad, a.grad._version])
            a.grad = None
            z = a + 0.0
            B.backward([z] * k, [B.value(0.5)] * k)
            rec(f"backward([a+0]*{k}, same seed) hooked={hooked}", [a.grad, a.grad._version])
            rec(f"grad([a+0]*{k}, [z, a]) hooked={hooked}", [(g, g._version) for g in B.grad([z] * k, [z, a])])
            seeds = [B.value(2.0) for _ in range(k)]
            z = a * 1.0
            rec(f"grad([z]*{k}, [z], seeds) hooked={hooked}", [(g, g._version) for g in B.grad([z] * k, [z], seeds)])
            rec(f"seed versions after, {k} hooked={hooked}", [g._version for g in seeds])
            a.grad = None
            y = a * 2.0
            B.backward([y, a, y, a, a])
            rec(f"backward([y, a, y, a, a]) {k} hooked={hooked}", [a.grad, a.grad._version])
    rec("hook saw (k, version)", log)
