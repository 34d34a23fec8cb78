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


def test_the_reference_mkl_fingerprint_is_the_engines():
    # (the engine reproduces MKL's results on the reference CPUs: where real PyTorch gives other ones, its kernels
    # are others, and the comparison goes to float32 rounding)
    engine = harness.load_engine()
    if engine.__name__ == "torch":
        pytest.skip("checks the engine")
    assert harness._mkl_fingerprint(engine) == harness._REFERENCE_MKL


@pytest.mark.parametrize("torch_text, engine_text, expected", [
    ("tensor([0.3527, 2.0000])\n", "tensor([0.3528, 2.0000])\n", True),     # rounded on either side of 0.35275
    ("tensor([0.3527, 2.0000])\n", "tensor([0.3529, 2.0000])\n", False),
    ("tensor([[ 0.,  1., -0.]])\n", "tensor([[ 0.,  1.,  0.]])\n", True),    # a sign of zero moves the column
    ("tensor([0.3527])\n", "tensor([0.3528e+00])\n", False),
    ("tensor([0.3527])\n", "tensor(0.3527)\n", False),
])
def test_same_to_the_printed_digit_on_other_kernels(monkeypatch, torch_text, engine_text, expected):
    monkeypatch.setattr(harness, "torch_cpu", lambda: "AVX512 (other MKL kernels)")
    assert harness.same(Printed(torch_text), Printed(engine_text)) is expected
    monkeypatch.setattr(harness, "torch_cpu", lambda: harness.ENGINE_CPU)
    assert harness.same(Printed(torch_text), Printed(engine_text)) is False
