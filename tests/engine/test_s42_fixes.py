"""Fixes of session 42, checked on the engine alone (these tests also run inside Pyodide and under newer CPythons)."""
import sys

import numpy as np
import pytest

import engine as torch


def _as_torch(code):
    """Run code with sys.modules['torch'] bound to the engine, as the browser does; the error it raises, or None."""
    saved = {k: v for k, v in sys.modules.items() if k == 'torch' or k.startswith('torch.')}
    try:
        for k in saved:
            del sys.modules[k]
        sys.modules['torch'] = torch
        try:
            exec(code, {})
        except Exception as e:          # noqa: BLE001  (the error is what is checked)
            return e
        return None
    finally:
        for k in [k for k in sys.modules if k == 'torch' or k.startswith('torch.')]:
            del sys.modules[k]
        sys.modules.update(saved)


@pytest.mark.parametrize("code, module", [
    ("from torch.nn import Relu", "torch.nn"), ("from torch import Tensr", "torch"),
    ("from torch.utils.data import Dataloader", "torch.utils.data"),
    ("from torch.optim.lr_scheduler import StepLr", "torch.optim.lr_scheduler"),
    ("import torch.nn.functional as F\nfrom torch.nn.functional import rellu", "torch.nn.functional")])
def test_import_error_names_the_torch_module(code, module):
    """A typo in `from torch... import name` is PyTorch's ImportError, which names torch's module, not engine's."""
    e = _as_torch(code)
    name = code.split()[-1]
    assert type(e) is ImportError and str(e).startswith("cannot import name '%s' from '%s' (" % (name, module)), e
    assert e.name == module


def test_attribute_errors_and_good_imports_unchanged():
    e = _as_torch("import torch.nn as nn\nnn.Relu")
    assert type(e) is AttributeError and str(e) == "module 'torch.nn' has no attribute 'Relu'"
    assert _as_torch("from torch import nn, optim\nfrom torch.nn import functional as F, ReLU\n"
                     "assert hasattr(torch := __import__('torch'), 'nn')") is None


def test_randn_blocks_at_once_same_numbers():
    """randn of 16 numbers or more: Box-Muller over blocks of 16 (now every block at once), the last block redrawn;
    PyTorch's numbers for seed 0."""
    torch.manual_seed(0)
    a = torch.randn(33)
    assert a[:3].tolist() == [-1.1258398294448853, -1.152360200881958, -0.2505785822868347]
    assert a[-2:].tolist() == [-1.586688756942749, 1.203223705291748]
    torch.manual_seed(0)
    b = torch.randn(400, 500)
    assert b[0, :3].tolist() == a[:3].tolist() and b[-1, -2:].tolist() == [-1.8303166627883911, -0.12796279788017273]
    assert abs(float(b.mean())) < 0.01 and abs(float(b.std()) - 1) < 0.01


def test_amp_turns_itself_off_for_cuda():
    """torch.amp on a CPU-only build: for 'cuda', PyTorch's warnings and no-ops; CPU autocast is not modelled."""
    with pytest.warns(UserWarning, match='CUDA is not available or torch_xla is imported. Disabling autocast.'):
        ctx = torch.autocast('cuda')
    with ctx:
        assert not torch.is_autocast_enabled()
    with pytest.warns(FutureWarning, match=r"`torch.cuda.amp.GradScaler\(args...\)` is deprecated"):
        with pytest.warns(UserWarning, match='GradScaler is enabled, but CUDA is not available.  Disabling.'):
            scaler = torch.cuda.amp.GradScaler()
    loss = torch.tensor(2.0, requires_grad=True) * 3
    assert scaler.scale(loss) is loss and scaler.get_scale() == 1.0 and scaler.state_dict() == {}
    assert type(scaler).__module__ == 'torch.cuda.amp.grad_scaler'
    with pytest.raises(NotImplementedError, match='autocast on the CPU'):
        with torch.autocast('cpu'):
            pass
    with torch.autocast('cpu', enabled=False):
        pass
