"""Record what real PyTorch prints for every snippet in snippets.txt into goldens.json (needs torch==2.13.0)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from snippets import run_snippet  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == '__main__':
    assert torch.__version__.startswith('2.13.'), torch.__version__
    with open(os.path.join(HERE, 'snippets.txt'), encoding='utf-8') as f:
        snippets = [s.strip('\n') for s in f.read().split('\n---\n') if s.strip()]
    goldens = [{'code': s, 'torch': run_snippet(torch, s)} for s in snippets]
    with open(os.path.join(HERE, 'goldens.json'), 'w', encoding='utf-8') as f:
        json.dump(goldens, f, indent=1, ensure_ascii=False)
    print('recorded %d snippets' % len(goldens))
