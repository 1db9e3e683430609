"""Hook lists and their handles, shared by Values and nodes (``register_hook``,
``register_prehook``, ``register_post_accumulate_grad_hook``), and the set of objects that have
one, which tells the engine whether its short loop will do (``engine._run_plain``)."""

from __future__ import annotations

import weakref
from typing import Any, Callable

class RemovableHandle:
    """Returned by every ``register_*hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks: list[Callable[..., Any]], hook: Callable[..., Any]) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        for i, h in enumerate(self._hooks):
            if h is self._hook:
                del self._hooks[i]
                return

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """``with v.register_hook(fn):`` removes the hook at the end of the block, as torch's handle."""
        self.remove()


# The nodes and leaves that have (or had) a hook or ``retain_grad``, and the nodes that run user
# code in backward (a custom Function's, which may register hooks while a pass runs).  While none
# lives, the engine runs its short loop (``engine._run_plain``), which reads no hook attribute.
needs_full_loop: weakref.WeakSet[Any] = weakref.WeakSet()


def add_hook(owner: Any, attribute: str, hook: Callable[..., Any]) -> RemovableHandle:
    """Append ``hook`` to ``owner``'s list ``attribute`` (made on first use) and return its handle."""
    hooks = owner.__dict__.get(attribute)
    if hooks is None:
        hooks = []
        setattr(owner, attribute, hooks)
        needs_full_loop.add(owner)
    hooks.append(hook)
    return RemovableHandle(hooks, hook)
