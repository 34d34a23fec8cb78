"""The differential tests' comparison: exact where PyTorch runs the kernels the engine reproduces, numbers to
float32 rounding where it runs kernels of another vector width."""
import pytest

from . import harness


class Printed:
    def __init__(self, text):
        self.text = text

    def summary(self):
        return self.text


@pytest.mark.parametrize("cpu, torch_text, engine_text, expected", [
    ("AVX512", "tensor([0.1235, 2.0000])\n", "tensor([0.1235, 2.0000])\n", True),
    ("AVX512", "[-6.282938003540039]\n", "[-6.282937526702881]\n", False),      # one float32 ulp: exact here
    ("AVX2", "[-6.282938003540039]\n", "[-6.282937526702881]\n", True),          # PyTorch's AVX2 kernels' last bit
    ("AVX512 AuthenticAMD", "[-6.282938003540039]\n", "[-6.282937526702881]\n", True),   # MKL's paths on AMD
    ("AVX2", "[-6.282938003540039]\n", "[-6.2829]\n", True),
    ("AVX2", "[-6.282938003540039]\n", "[-6.2839]\n", False),                    # a wrong value
    ("AVX2", "tensor([1.5]) SumBackward0\n", "tensor([1.5]) MeanBackward0\n", False),   # other text
    ("AVX2", "tensor([1., 2.])\n", "tensor([1., 2., 3.])\n", False),
])
def test_same(monkeypatch, cpu, torch_text, engine_text, expected):
    monkeypatch.setattr(harness, "torch_cpu", lambda: cpu)
    assert harness.same(Printed(torch_text), Printed(engine_text)) is expected
