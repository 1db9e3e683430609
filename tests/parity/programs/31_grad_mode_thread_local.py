"""Grad mode is per thread: no_grad here does not stop another thread's graph."""

import threading


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    seen = {}

    def worker():
        seen["enabled"] = B.is_grad_enabled()
        seen["grad_fn"] = (w * w).grad_fn
        with B.no_grad():
            seen["worker no_grad"] = B.is_grad_enabled()

    with B.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        rec("main thread inside no_grad", B.is_grad_enabled())
    rec("new thread starts enabled", seen["enabled"])
    rec("new thread records a graph", seen["grad_fn"])
    rec("new thread's own no_grad", seen["worker no_grad"])
    rec("main thread after", B.is_grad_enabled())

    def worker_disables():
        B.set_grad_enabled(False)
        seen["disabled in worker"] = B.is_grad_enabled()

    t = threading.Thread(target=worker_disables)
    t.start()
    t.join()
    rec("worker disabled its own mode", seen["disabled in worker"])
    rec("main thread unaffected", B.is_grad_enabled())
