"""Deliberate type errors: mypy must reject each marked line (tests/test_stubs.py checks the messages)."""
import tensorlib as tl

x = tl.tensor([1.0, 2.0])
a = x + "one"  # E: operator
b: int = x.sum()  # E: assignment
c = x.sum(dim=1.5)  # E: arg-type
d = tl.linalg.solve(x)  # E: call-arg
e = x.no_such_method()  # E: attr-defined
f: str = x.shape  # E: assignment
g = tl.zeros(2, dtype="float32")  # E: arg-type
h = x.transpose(0.5, 1)  # E: arg-type
tl.set_num_threads("4")  # E: arg-type
