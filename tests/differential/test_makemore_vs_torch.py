"""Karpathy's makemore lectures (bigram counts and sampling, the MLP, Becoming a Backprop Ninja, the WaveNet-style
hierarchy) against real PyTorch: sampling names with torch.multinomial from a seeded generator, a.storage(), and
the backprop ninja's `dC[ix] += demb[k, j]` with a 0-d index tensor must print what PyTorch prints."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# A stand-in for names.txt, with the lectures' stoi / itos.
NAMES = ("words = 'emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily liam noah oliver "
         "elijah william james benjamin lucas henry alexander zoey quinn xavier jack kai'.split()\n"
         "chars = sorted(list(set(''.join(words) + 'bcdfgkprtuy')))\n"
         "stoi = {s: i + 1 for i, s in enumerate(chars)}\n"
         "stoi['.'] = 0\n"
         "itos = {i: s for s, i in stoi.items()}\n")

SNIPPETS = {
    # Part 1: bigram counts, normalised rows, names sampled one character at a time (with replacement, one sample:
    # PyTorch's exponential race), and samples of a row with replacement (its cumulative distribution).
    'bigram_counts_and_sampling': NAMES + (
        "N = torch.zeros((27, 27), dtype=torch.int32)\n"
        "for w in words:\n"
        "    chs = ['.'] + list(w) + ['.']\n"
        "    for ch1, ch2 in zip(chs, chs[1:]):\n"
        "        N[stoi[ch1], stoi[ch2]] += 1\n"
        "g = torch.Generator().manual_seed(2147483647)\n"
        "p = torch.rand(3, generator=g)\n"
        "p = p / p.sum()\n"
        "print(p, torch.multinomial(p, num_samples=100, replacement=True, generator=g))\n"
        "P = (N + 1).float()\n"
        "P /= P.sum(1, keepdims=True)\n"
        "g = torch.Generator().manual_seed(2147483647)\n"
        "for i in range(10):\n"
        "    out = []\n"
        "    ix = 0\n"
        "    while True:\n"
        "        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()\n"
        "        out.append(itos[ix])\n"
        "        if ix == 0:\n"
        "            break\n"
        "    print(''.join(out))\n"
        "print(torch.multinomial(P[:3], 4, generator=g), torch.rand(2, generator=g))\n"
        "torch.manual_seed(1)\n"
        "print(P[5].multinomial(8, True), torch.multinomial(P[7], 3), torch.randn(2))\n"),
    'multinomial_errors': TRIES + (
        "p = torch.tensor([0.1, 0.2, 0.7])\n"
        "tries(lambda: torch.multinomial(torch.tensor(0.5), 1), lambda: torch.multinomial(torch.tensor([1, 2]), 1),\n"
        "      lambda: torch.multinomial(p, 0), lambda: torch.multinomial(p, 4),\n"
        "      lambda: torch.multinomial(torch.zeros(3), 1), lambda: torch.multinomial(torch.zeros(3), 2, True),\n"
        "      lambda: torch.multinomial(torch.tensor([1., -1, 1]), 1),\n"
        "      lambda: torch.multinomial(torch.tensor([1., float('inf'), -1]), 2, True),\n"
        "      lambda: torch.multinomial(torch.tensor([1., float('nan'), 1]), 2, True),\n"
        "      lambda: torch.multinomial(torch.tensor([[1., 1], [0, 0]]), 1),\n"
        "      lambda: torch.multinomial(torch.zeros(0, 3), 1), lambda: torch.multinomial(p, 2.0),\n"
        "      lambda: p.multinomial(True), lambda: p.multinomial(1, 1),\n"
        "      lambda: torch.multinomial(p, num_samples=True), lambda: torch.multinomial(p),\n"
        "      lambda: torch.multinomial([0.1, 0.9], 1),\n"
        "      lambda: torch.multinomial(p, 1, out=torch.empty(3)))\n"),
    # Part 2: the MLP's sampling loop (softmax probabilities of one row) and Karpathy's look at a view's storage.
    'mlp_storage_and_sampling': NAMES + (
        "import torch.nn.functional as F\n"
        "a = torch.arange(18)\n"
        "print(a.view(3, 3, 2).storage())\n"
        "print(len(a[2:].storage()), a[::2].storage().tolist()[:4], torch.tensor([0.1, 2.5]).storage())\n"
        "g = torch.Generator().manual_seed(2147483647 + 10)\n"
        "C = torch.randn((27, 2), generator=g)\n"
        "W = torch.randn((6, 27), generator=g)\n"
        "for _ in range(5):\n"
        "    out = []\n"
        "    context = [0] * 3\n"
        "    while len(out) < 12:\n"
        "        emb = C[torch.tensor([context])]\n"
        "        probs = F.softmax(emb.view(1, -1) @ W, dim=1)\n"
        "        ix = torch.multinomial(probs, num_samples=1, generator=g).item()\n"
        "        context = context[1:] + [ix]\n"
        "        out.append(ix)\n"
        "        if ix == 0:\n"
        "            break\n"
        "    print(''.join(itos[i] for i in out))\n"),
    # Part 4: the embedding's gradient added up row by row with 0-d index tensors (PyTorch: a select and copy_,
    # CopySlices; not index_put_, which refuses the overlap).
    'backprop_ninja_dC_loop': (
        "g = torch.Generator().manual_seed(2147483647)\n"
        "C = torch.randn((27, 4), generator=g)\n"
        "Xb = torch.randint(0, 27, (5, 3), generator=g)\n"
        "demb = torch.randn((5, 3, 4), generator=g)\n"
        "dC = torch.zeros_like(C)\n"
        "for k in range(Xb.shape[0]):\n"
        "    for j in range(Xb.shape[1]):\n"
        "        ix = Xb[k, j]\n"
        "        dC[ix] += demb[k, j]\n"
        "print(dC)\n"
        "x = torch.zeros(3, 2, requires_grad=True).clone()\n"
        "x[torch.tensor(2)] = torch.ones(2)\n"
        "x[torch.tensor(1), 0] = 5\n"
        "print(x)\n"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert same(t, e)
    if name != 'multinomial_errors':
        assert t.error is None
