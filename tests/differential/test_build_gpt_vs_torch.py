"""Andrej Karpathy's "Let's build GPT: from scratch" lecture (ng-video-lecture's bigram.py / gpt.py), at small sizes,
against real PyTorch: the "mathematical trick" of self-attention, one attention head, nn.LayerNorm / F.layer_norm
(PyTorch's CPU kernel, bit for bit), and a 2-layer transformer's training loop."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

TEXT = ('text = """First Citizen:\\nBefore we proceed any further, hear me speak.\\n\\nAll:\\nSpeak, speak.\\n\\n'
        'First Citizen:\\nYou are all resolved rather to die than to famish?\\n"""\n')

GPT = (
    'nn = torch.nn\n'
    'F = torch.nn.functional\n'
    'batch_size, block_size, n_embd, n_head, n_layer, dropout = 4, 8, 32, 4, 2, 0.0\n'
    'torch.manual_seed(1337)\n' + TEXT +
    'chars = sorted(list(set(text)))\n'
    'vocab_size = len(chars)\n'
    'stoi = {ch: i for i, ch in enumerate(chars)}\n'
    'data = torch.tensor([stoi[c] for c in text], dtype=torch.long)\n'
    'def get_batch():\n'
    '    ix = torch.randint(len(data) - block_size, (batch_size,))\n'
    '    x = torch.stack([data[i:i+block_size] for i in ix])\n'
    '    y = torch.stack([data[i+1:i+block_size+1] for i in ix])\n'
    '    return x, y\n'
    'class Head(nn.Module):\n'
    '    def __init__(self, head_size):\n'
    '        super().__init__()\n'
    '        self.key = nn.Linear(n_embd, head_size, bias=False)\n'
    '        self.query = nn.Linear(n_embd, head_size, bias=False)\n'
    '        self.value = nn.Linear(n_embd, head_size, bias=False)\n'
    '        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))\n'
    '        self.dropout = nn.Dropout(dropout)\n'
    '    def forward(self, x):\n'
    '        B, T, C = x.shape\n'
    '        k = self.key(x)\n'
    '        q = self.query(x)\n'
    '        wei = q @ k.transpose(-2, -1) * k.shape[-1]**-0.5\n'
    '        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))\n'
    '        wei = self.dropout(F.softmax(wei, dim=-1))\n'
    '        return wei @ self.value(x)\n'
    'class MultiHeadAttention(nn.Module):\n'
    '    def __init__(self, num_heads, head_size):\n'
    '        super().__init__()\n'
    '        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])\n'
    '        self.proj = nn.Linear(head_size * num_heads, n_embd)\n'
    '        self.dropout = nn.Dropout(dropout)\n'
    '    def forward(self, x):\n'
    '        return self.dropout(self.proj(torch.cat([h(x) for h in self.heads], dim=-1)))\n'
    'class Block(nn.Module):\n'
    '    def __init__(self, n_embd, n_head):\n'
    '        super().__init__()\n'
    '        self.sa = MultiHeadAttention(n_head, n_embd // n_head)\n'
    '        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd),\n'
    '                                  nn.Dropout(dropout))\n'
    '        self.ln1 = nn.LayerNorm(n_embd)\n'
    '        self.ln2 = nn.LayerNorm(n_embd)\n'
    '    def forward(self, x):\n'
    '        x = x + self.sa(self.ln1(x))\n'
    '        return x + self.ffwd(self.ln2(x))\n'
    'class GPTLanguageModel(nn.Module):\n'
    '    def __init__(self):\n'
    '        super().__init__()\n'
    '        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)\n'
    '        self.position_embedding_table = nn.Embedding(block_size, n_embd)\n'
    '        self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])\n'
    '        self.ln_f = nn.LayerNorm(n_embd)\n'
    '        self.lm_head = nn.Linear(n_embd, vocab_size)\n'
    '        self.apply(self._init_weights)\n'
    '    def _init_weights(self, module):\n'
    '        if isinstance(module, nn.Linear):\n'
    '            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)\n'
    '            if module.bias is not None:\n'
    '                torch.nn.init.zeros_(module.bias)\n'
    '        elif isinstance(module, nn.Embedding):\n'
    '            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)\n'
    '    def forward(self, idx, targets=None):\n'
    '        B, T = idx.shape\n'
    '        x = self.token_embedding_table(idx) + self.position_embedding_table(torch.arange(T, device="cpu"))\n'
    '        logits = self.lm_head(self.ln_f(self.blocks(x)))\n'
    '        if targets is None:\n'
    '            return logits, None\n'
    '        B, T, C = logits.shape\n'
    '        return logits, F.cross_entropy(logits.view(B*T, C), targets.view(B*T))\n'
    'model = GPTLanguageModel()\n')

SNIPPETS = {
    # The "mathematical trick": xbow by a loop of means against wei @ x, a batched matmul of 8 x 8 by 8 x 2 that
    # PyTorch adds in k order (its naive bmm kernel below 400 multiply-adds a matrix): allclose says False there.
    'trick_xbow_matmul': (
        'torch.manual_seed(1337)\n'
        'B, T, C = 4, 8, 2\n'
        'x = torch.randn(B, T, C)\n'
        'xbow = torch.zeros((B, T, C))\n'
        'for b in range(B):\n'
        '    for t in range(T):\n'
        '        xbow[b, t] = torch.mean(x[b, :t+1], 0)\n'
        'wei = torch.tril(torch.ones(T, T))\n'
        'wei = wei / wei.sum(1, keepdim=True)\n'
        'xbow2 = wei @ x\n'
        'print(torch.allclose(xbow, xbow2), (xbow - xbow2).abs().max().item(), xbow2[1].tolist())\n'),
    # One head of self-attention: keys and queries of a Linear(32, 16, bias=False) (MKL adds each dot product with
    # the weight's 16 columns in 4 lanes), scores q @ k.transpose(-2, -1) (the same, batch by batch), to the bit.
    'attention_head': (
        'nn, F = torch.nn, torch.nn.functional\n'
        'torch.manual_seed(1337)\n'
        'B, T, C = 4, 8, 32\n'
        'x = torch.randn(B, T, C)\n'
        'head_size = 16\n'
        'key = nn.Linear(C, head_size, bias=False)\n'
        'query = nn.Linear(C, head_size, bias=False)\n'
        'value = nn.Linear(C, head_size, bias=False)\n'
        'k, q = key(x), query(x)\n'
        'print(k[1, 2].tolist(), q[3, 7].tolist())\n'
        'wei = q @ k.transpose(-2, -1)\n'
        'print(wei[2].tolist())\n'
        'wei = wei.masked_fill(torch.tril(torch.ones(T, T)) == 0, float("-inf"))\n'
        'wei = F.softmax(wei, dim=-1)\n'
        'print((wei @ value(x))[0, 5].tolist())\n'
        'k, q = torch.randn(B, T, 8), torch.randn(B, T, 8)\n'
        'print((q @ k.transpose(-2, -1) * 8**-0.5)[1].tolist())\n'),
    # nn.LayerNorm: its repr, NativeLayerNormBackward0 and its saved mean and rstd (result1, result2), values and
    # gradients to the bit (PyTorch's Welford moments per row), and PyTorch's errors.
    'layer_norm_module': (
        SHOW +
        'torch.manual_seed(0)\n'
        'ln = torch.nn.LayerNorm(32)\n'
        'print(ln, torch.nn.LayerNorm((3, 4), elementwise_affine=False), torch.nn.LayerNorm(4, bias=False))\n'
        'print(list(ln.state_dict()), ln.normalized_shape, ln.eps)\n'
        'with torch.no_grad():\n'
        '    ln.weight.normal_()\n'
        '    ln.bias.normal_()\n'
        'x = (torch.randn(2, 8, 32) * 3 + 1).requires_grad_()\n'
        'y = ln(x)\n'
        'show(y[0, :2, :4])\n'
        'g = y.grad_fn\n'
        'print(g.name(), g._saved_normalized_shape, g._saved_result1.shape, g._saved_result1.flatten().tolist())\n'
        'print(g._saved_result2.flatten().tolist())\n'
        'print(y[1, 3].tolist())\n'
        'y.backward(torch.randn(2, 8, 32))\n'
        'print(x.grad[0, 1].tolist(), ln.weight.grad.tolist(), ln.bias.grad.tolist())\n'),
    'layer_norm_functional': (
        SHOW +
        'F = torch.nn.functional\n'
        'torch.manual_seed(1)\n'
        'x = torch.randn(3, 5, 16, requires_grad=True)\n'
        'y = F.layer_norm(x, (5, 16))\n'
        'show(y[0, 0, :3])\n'
        'print(y[2, 4].tolist())\n'
        'w = torch.randn(16, requires_grad=True)\n'
        'z = F.layer_norm(x, [16], w, eps=1e-3)\n'
        'print(z.grad_fn.next_functions, z[1, 1].tolist())\n'
        'z.sum().backward()\n'
        'print(x.grad[1, 2].tolist(), w.grad.tolist())\n'
        'tries(lambda: F.layer_norm(x, (3,)), lambda: F.layer_norm(x, (4, 16)),\n'
        '      lambda: F.layer_norm(x, (16,), torch.ones(3)), lambda: F.layer_norm(x, (16,), None, torch.ones(5)),\n'
        '      lambda: F.layer_norm(x, ()), lambda: torch.nn.LayerNorm(5)(x), lambda: F.layer_norm(x, 16).shape)\n'),
    # The transformer itself: its size, a block's repr, the loss of the untrained model, and 20 steps of AdamW
    # (losses printed to 4 places: one float32 addition of a Linear with bias still differs in the last bit).
    'gpt_training_loop': (
        GPT +
        'print(sum(p.numel() for p in model.parameters())/1e6, "M parameters")\n'
        'print(model.blocks[0])\n'
        'optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n'
        '@torch.no_grad()\n'
        'def estimate_loss():\n'
        '    model.eval()\n'
        '    losses = torch.zeros(3)\n'
        '    for k in range(3):\n'
        '        X, Y = get_batch()\n'
        '        logits, loss = model(X, Y)\n'
        '        losses[k] = loss.item()\n'
        '    model.train()\n'
        '    return losses.mean()\n'
        'for it in range(20):\n'
        '    if it % 10 == 0:\n'
        '        print(f"step {it}: loss {estimate_loss():.4f}")\n'
        '    xb, yb = get_batch()\n'
        '    logits, loss = model(xb, yb)\n'
        '    optimizer.zero_grad(set_to_none=True)\n'
        '    loss.backward()\n'
        '    optimizer.step()\n'
        '    print(it, f"{loss.item():.4f}")\n'
        'print(logits.shape, logits.grad_fn, loss.grad_fn, model.ln_f.weight.grad is None)\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert same(t, e)
    assert t.error is None
