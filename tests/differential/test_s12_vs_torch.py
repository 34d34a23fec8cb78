"""The twelfth session's corners against real PyTorch: torch.* functions given a number or a list where PyTorch's
argument parser wants a tensor (torch.sqrt(2)), squeeze over several dims, the grad-mode objects' reprs, torch.version and pin_memory, grad_fn._raw_saved_<name> and its hooks, index_put(_) and torch.pi / e / inf / nan, logsumexp in PyTorch's composition, add / sub / rsub's alpha in one fused multiply-add, and
values printed through the engine's lighter forward paths (mm, the pointwise float ops, relu, sum). Printed text,
warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "a_number_where_a_tensor_is_wanted": (
        "tries(lambda: torch.sqrt(2), lambda: torch.exp(1), lambda: torch.log(10.0), lambda: torch.sigmoid(0.5),\n"
        "      lambda: torch.tanh(None), lambda: torch.sum([1, 2]), lambda: torch.mean([1.]), lambda: torch.abs(-1),\n"
        "      lambda: torch.max(3), lambda: torch.relu(3), lambda: torch.zeros_like(3), lambda: torch.ones_like([1]),\n"
        "      lambda: torch.squeeze(3), lambda: torch.flatten([1]), lambda: torch.transpose(2, 0, 1),\n"
        "      lambda: torch.matmul([1], [2]), lambda: torch.softmax([1.], 0), lambda: torch.sqrt(input=4),\n"
        "      lambda: torch.log(torch.tensor(1.), 2), lambda: torch.exp(torch.tensor(0.)),\n"
        "      lambda: torch.sum(torch.ones(2, 2), axis=0), lambda: torch.cumsum(torch.ones(3), 0),\n"
        "      lambda: torch.isnan(float('nan')), lambda: torch.argmax([3, 1]))\n"
        "F = torch.nn.functional\n"
        "tries(lambda: F.relu(3), lambda: F.relu(3, inplace=True), lambda: F.sigmoid(1.), lambda: F.tanh(None),\n"
        "      lambda: F.softmax([1., 2.], 0), lambda: F.softmax([1.]), lambda: F.relu(torch.tensor([-1., 2.])))"),
    "squeeze_over_several_dims": (
        "x = torch.ones(1, 2, 1, requires_grad=True)\n"
        "tries(lambda: x.squeeze(0, 2), lambda: x.squeeze((0, 2)), lambda: torch.squeeze(x, (0, 2)),\n"
        "      lambda: x.squeeze(dim=(0, 2)), lambda: x.squeeze(0, 0), lambda: x.squeeze(0, 5), lambda: x.squeeze(0, 1),\n"
        "      lambda: torch.ones(2, 1, 2).squeeze(0, 1).shape, lambda: torch.tensor(3.).squeeze(0, -1))\n"
        "show(x.squeeze(0, 2))\n"
        "show(x.squeeze(2))\n"
        "x.squeeze(-1, 0).sum().backward()\n"
        "print(x.grad)"),
    "grad_mode_objects": (
        "print(torch.set_grad_enabled(False), torch.is_grad_enabled())\n"
        "print(repr(torch.set_grad_enabled(True)), torch.is_grad_enabled())\n"
        "print(type(torch.no_grad()), type(torch.enable_grad()), type(torch.inference_mode()))\n"
        "print(type(torch.set_grad_enabled(True)).__module__, type(torch.no_grad()).__name__)"),
    "raw_saved_tensors_and_their_hooks": (
        "x = torch.tensor([1., -2.], requires_grad=True)\n"
        "y = x.pow(2)\n"
        "print(type(y.grad_fn._raw_saved_self), y.grad_fn._raw_saved_self.unpack_hook,\n"
        "      y.grad_fn._raw_saved_self.data is x)\n"
        "print(sorted(a for a in dir(y.grad_fn) if 'saved' in a))\n"
        "print(sorted(a for a in dir((x * 2.0).grad_fn) if 'saved' in a), sorted(a for a in dir(x.exp().grad_fn)\n"
        "      if 'saved' in a), sorted(a for a in dir((x.unsqueeze(0) @ x.unsqueeze(1)).grad_fn) if 'saved' in a))\n"
        "y.grad_fn._raw_saved_self.register_hooks(lambda t: print('pack', t) or 5, lambda v: print('unpack', v) or x * 1)\n"
        "tries(lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t),\n"
        "      lambda: y.grad_fn._saved_self)\n"
        "y.sum().backward()\n"
        "print(x.grad)\n"
        "tries(lambda: y.grad_fn._saved_self, lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))\n"
        "m = x * 2.0\n"
        "tries(lambda: m.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t),\n"
        "      lambda: m.grad_fn._raw_saved_self.register_hooks(1, 2))\n"
        "m.grad_fn._raw_saved_other.register_hooks(lambda t: print('pack', t) or t, lambda t: print('unpack', t) or t)\n"
        "n = x * 2.0\n"
        "m.sum().backward()\n"
        "n.sum().backward()\n"
        "e = x.exp()\n"
        "e.grad_fn._raw_saved_result.register_hooks(lambda t: print('pack', t, t.grad_fn, t is e) or t,\n"
        "                                           lambda t: print('unpack', t.grad_fn) or t)\n"
        "print(e.grad_fn._saved_result.grad_fn)\n"
        "e.sum().backward()\n"
        "u = x.sin()\n"
        "u.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 3)\n"
        "tries(lambda: u.sum().backward())\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
        "    q = x.cos()\n"
        "tries(lambda: q.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))\n"
        "print(x.grad)"),
    "what_an_unpack_hook_returns_takes_the_saved_tensors_place": (
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "b = a * 2\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):\n"
        "    y = a * b\n"
        "    z = (a * a * a).sum()\n"
        "s, o = y.grad_fn._saved_self, y.grad_fn._saved_other\n"
        "print(s, s.grad_fn, s.requires_grad, s.is_leaf, s is a, o, o.grad_fn is b.grad_fn)\n"
        "g, = torch.autograd.grad(z, a, create_graph=True)\n"
        "print(g)\n"
        "g.sum().backward()\n"
        "print(a.grad)\n"
        "y.sum().backward()\n"
        "print(a.grad)"),
    "index_put_and_its_saved_values": (
        "x = torch.zeros(3, 2, requires_grad=True) * 1\n"
        "x[torch.tensor([True, False, True])] = 5.\n"
        "print(x.grad_fn, x.grad_fn._saved_accumulate, x.grad_fn._saved_indices)\n"
        "y = torch.zeros(4, requires_grad=True) * 1\n"
        "y[torch.tensor([0, 2])] = torch.tensor([1., 2.])\n"
        "print(y.grad_fn._saved_indices, y.grad_fn._saved_accumulate)\n"
        "w = torch.zeros(3, requires_grad=True) * 1\n"
        "w.index_put_((torch.tensor([0, 0]),), torch.tensor([1., 2.]), accumulate=True)\n"
        "print(w, w.grad_fn, w.grad_fn._saved_accumulate, sorted(a for a in dir(w.grad_fn) if 'saved' in a))\n"
        "v = torch.zeros(4, requires_grad=True)\n"
        "s = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "u = v * 1\n"
        "u.index_put_((torch.tensor([1, 1, 3]),), s, accumulate=True)\n"
        "(u * torch.arange(4.)).sum().backward()\n"
        "print(u, v.grad, s.grad)\n"
        "v.grad = s.grad = None\n"
        "u = torch.index_put(v, (torch.tensor([1, 1, 3]),), s)\n"
        "(u * torch.arange(4.)).sum().backward()\n"
        "print(u, v.grad, s.grad)\n"
        "print(torch.index_put(torch.zeros(3), (torch.tensor([0]),), torch.tensor(5.)))\n"
        "tries(lambda: torch.zeros(3).index_put_(torch.tensor([0]), torch.tensor(1.)))\n"
        "print(torch.pi, torch.e, torch.inf, torch.nan)"),
    "logsumexp_to_the_last_bit": (
        "torch.manual_seed(0)\n"
        "for shape, dim in (((3,), -1), ((4, 7), 1), ((4, 7), 0), ((2, 3, 5), (0, 2)), ((64, 10), 1), ((1000,), 0)):\n"
        "    x = torch.randn(*shape) * 3\n"
        "    print(shape, dim, x.logsumexp(dim).flatten()[:4].tolist(), x.double().logsumexp(dim).flatten()[0].item())\n"
        "print(torch.tensor([0., 1., 2.]).logsumexp(-1).item(), torch.tensor([float('inf'), 1.]).logsumexp(0),\n"
        "      torch.tensor([-float('inf'), -float('inf')]).logsumexp(0), torch.tensor([1, 2]).logsumexp(0))\n"
        "x = torch.tensor([[0., 1., 2.]], requires_grad=True)\n"
        "y = x.logsumexp(1, keepdim=True)\n"
        "show(y)\n"
        "y.sum().backward()\n"
        "print(x.grad.tolist())"),
    "alpha_in_one_fused_multiply_add": (
        "torch.manual_seed(0)\n"
        "a, b = torch.randn(1000), torch.randn(1000)\n"
        "r, r2 = torch.add(a, b, alpha=0.1), a.sub(b, alpha=0.3)\n"
        "print(r[:3].tolist(), r2[:3].tolist(), r.sum().item(), r2.sum().item())\n"
        "print(a.add(2.5, alpha=0.1)[:2].tolist(), torch.add(a[:5], b[:5], alpha=0.7).tolist())\n"
        "c = a.clone()\n"
        "c.add_(b, alpha=-0.01)\n"
        "print(c[:3].tolist(), torch.ones(2).add(torch.ones(2), alpha=torch.tensor(2.)))\n"
        "print(torch.rsub(a[:4], 2.5, alpha=0.3).tolist(), torch.rsub(a[:4], b[:4], alpha=0.7).tolist())\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = torch.add(x, x * 2, alpha=3)\n"
        "y.sum().backward()\n"
        "print(y, x.grad, y.grad_fn._saved_alpha)"),
    "devices_and_versions": (
        "import torch.version\n"
        "print(torch.version.cuda, torch.version.hip, torch.version.debug, torch.version.__version__,\n"
        "      torch.cuda.is_available(), torch.ones(2).is_pinned())\n"
        "tries(lambda: torch.ones(2).pin_memory(), lambda: torch.ones(2).cuda(), lambda: torch.ones(2).to('cuda'))"),
    "the_lighter_forward_paths": (
        "torch.manual_seed(0)\n"
        "x = torch.randn(5, 7)\n"
        "w = torch.randn(7, 3, requires_grad=True)\n"
        "h = (x @ w).relu()\n"
        "e = h.exp()\n"
        "l = (e.log() + e.sin() + e.tanh()).sum()\n"
        "s = h.sum(1, keepdim=True)\n"
        "show(h)\n"
        "show(e)\n"
        "show(s)\n"
        "print(l.item(), s.sum().item(), torch.ones(2, dtype=torch.int64).sum(), torch.arange(4).exp())\n"
        "l.backward()\n"
        "print(w.grad)\n"
        "with torch.no_grad():\n"
        "    print((x @ w).relu().exp().sum().requires_grad)\n"
        "print(torch.tensor([[True, False]]).sum(), torch.ones(2, 3).double().log().dtype)\n"
        "tries(lambda: torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64),\n"
        "      lambda: torch.ones(2, 3, dtype=torch.bool) @ torch.ones(3, 2, dtype=torch.bool),\n"
        "      lambda: torch.ones(2, 3).mm(torch.ones(2, 3)), lambda: torch.tensor([True]).relu())\n"
        "g = torch.tensor([-1., 0., float('nan'), 2.], requires_grad=True)\n"
        "g.relu().sum().backward()\n"
        "print(g.grad)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
