"""An ``apply`` an engine set on a node itself, watched as the class's is (``build_watch``).

The order probe wraps each node class's ``apply`` while backward runs.  An engine may put an
apply of its own on one node: ``retain_grad`` as a hook, a closure that writes the gradient into
``.grad`` and then calls the apply it read from the node before (the class's function, bound).
Backward's ``node.apply(grad)`` then finds the closure, which calls the class's function without
going through the class's wrapper: the node ran, and would be told as never run.  ``OwnApplies``
wraps such an apply on the node for the watch and notes its run, what it returned or raised as
the class's wrapper does; a run the class's wrapper sees as well (a closure that looks the
class's apply up only when it runs) is noted once, by the node's own wrapper: the class's
wrapper is handed ``notes``, which skip such a node.
"""

from __future__ import annotations

from typing import Any, Callable


class OwnApplies:
    """The nodes among ``nodes`` with an ``apply`` of their own, each wrapped until ``restore``."""

    def __init__(self, nodes: list[Any], ran: Callable[..., None], returned: Callable[[Any, object], None],
                 failed: Callable[[Any, Exception], None]) -> None:
        self.inside: set[int] = set()  # the nodes whose own apply is running
        self.put: list[tuple[Any, Any]] = []  # each node wrapped, with the apply it had
        self.notes = (self._unless_inside(ran), self._unless_inside(returned), self._unless_inside(failed))
        """What the class's wrapper notes with: ``ran``, ``returned``, ``failed``, each skipping such a node."""
        for node in nodes:
            attributes = getattr(node, "__dict__", None)
            own = attributes.get("apply") if type(attributes) is dict else None
            if callable(own):
                self.put.append((node, own))
                node.apply = self._wrapped(node, own, ran, returned, failed)

    def _wrapped(self, node: Any, own: Callable[..., Any], ran: Callable[..., None],
                 returned: Callable[[Any, object], None], failed: Callable[[Any, Exception], None]
                 ) -> Callable[..., Any]:
        """``own``, noting the node's run before it and what it returned or raised after."""
        def apply(*args: Any, **kwargs: Any) -> Any:
            ran(node, *args)
            self.inside.add(id(node))
            try:
                result = own(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - noted, and raised on as the engine raised it
                failed(node, exc)
                raise
            finally:
                self.inside.discard(id(node))
            returned(node, result)
            return result
        return apply

    def _unless_inside(self, note: Callable[..., None]) -> Callable[..., None]:
        """``note``, but nothing for a node whose own apply is running (its own wrapper notes it)."""
        return lambda node, *args: None if id(node) in self.inside else note(node, *args)

    def restore(self) -> None:
        """Put back each node's own apply."""
        for node, own in self.put:
            node.apply = own
