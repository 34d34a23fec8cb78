"""PyTorch's CPU random numbers: its generator (mt19937, seeded as PyTorch seeds it) and the way its kernels turn
the generator's 32-bit draws into uniform, normal and integer numbers, so that `torch.manual_seed(0);
torch.randn(3)`, `torch.rand(2, 2)` or a fresh `nn.Linear(2, 1)` show PyTorch's numbers, bit for bit."""
import math
import os

import numpy as np

from ._dtypes import CType, c_type, check_device
from ._dtypes import device as _device

DEFAULT_SEED = 67280421310721       # the seed PyTorch's CPU generators start from
_F32 = np.float32
_NO_CUDA_GENERATOR = (
    'Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared libraries: a '
    'CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, '
    "but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA library MUST be "
    "loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit is a lack of "
    '-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library dependencies if you '
    "don't depend on any of their symbols.  You can check if this has occurred by using ldd on your binary to see if "
    'there is a dependency on *_cuda.so library.')


@c_type('torch._C.Generator')
class Generator(metaclass=CType):
    """torch.Generator: mt19937 (numpy's legacy RandomState is the same engine, seeded the same way from the low
    32 bits), plus the second number of the last normal pair, which PyTorch keeps for the next draw."""
    __module__ = 'torch._C'         # (PyTorch's C type: print(torch.Generator) shows <class 'torch._C.Generator'>)

    def __init__(self, device='cpu'):
        d = _device('cpu' if device is None else device)       # (an index: no accelerator; a bad name: its error)
        if d.type == 'cuda':
            raise RuntimeError(_NO_CUDA_GENERATOR)
        check_device(d)
        self._device = _device('cpu')      # (PyTorch's CPU generator has no index: 'cpu:0' gives device('cpu'))
        self.manual_seed(DEFAULT_SEED)

    @property
    def device(self):
        return self._device

    def manual_seed(self, seed):
        if type(seed) is not int:               # (torch.manual_seed gives int(seed))
            raise RuntimeError('manual_seed expected a long, but got %s' % type(seed).__name__)
        if not -1 << 63 <= seed < 1 << 64:
            raise ValueError('Overflow when unpacking long long')
        self._seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        self._mt = None                 # (made at the first draw: importing numpy.random slows the page's start-up)
        self._next_normal = None
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        s = int.from_bytes(os.urandom(8), 'little')
        self.manual_seed(s)
        return s

    def __repr__(self):
        return '<torch._C.Generator object at %#x>' % id(self)

    def __reduce__(self):
        """pickle, copy.copy and copy.deepcopy: a new generator in this one's state (PyTorch's pickles its state)."""
        return _generator_in_state, (self.state_bytes(),)

    def clone_state(self):
        """A new generator in this one's state (they draw the same numbers from here on)."""
        return _generator_in_state(self.state_bytes())

    # ------------------------------------------------------------------ state, in PyTorch's bytes
    # CPUGeneratorImplState: the seed (u64), mt19937's `left` and `seeded` (i32), `next` (u64) and its 624 words (as
    # u64), the normal pair's x, y (the kept number) and rho (f64), whether y is kept (i32), a float32 normal and
    # whether it is kept; 5,056 bytes. numpy's position in the words is PyTorch's `next`; `left` is 625 - position.
    _STATE_SIZE = 5056

    def _words(self):
        if self._mt is None:
            self._mt = np.random.RandomState(self._seed & 0xFFFFFFFF)
        return self._mt.get_state()[1:3]

    def state_bytes(self):
        """The state as the uint8 array PyTorch's get_state() holds."""
        words, pos = self._words()
        out = np.zeros(self._STATE_SIZE, np.uint8)
        out[0:8].view(np.uint64)[0] = self._seed
        out[8:16].view(np.int32)[:] = 625 - pos, 1
        out[16:24].view(np.uint64)[0] = pos % 624
        out[24:5016].view(np.uint64)[:] = words
        if self._next_normal is not None:
            out[5024:5032].view(np.float64)[0] = self._next_normal
            out[5040:5044].view(np.int32)[0] = 1
        return out

    def load_state_bytes(self, state):
        """Go back to a state state_bytes() gave (a uint8 array of PyTorch's size)."""
        if state.size != self._STATE_SIZE:
            raise RuntimeError('Expected a CPUGeneratorImplState of size %d but found the input RNG state size to '
                               'be %d' % (self._STATE_SIZE, state.size))
        state = np.ascontiguousarray(state, np.uint8)
        self._seed = int(state[0:8].view(np.uint64)[0])
        self._mt = np.random.RandomState()
        left = int(state[8:12].view(np.int32)[0])
        self._mt.set_state(('MT19937', state[24:5016].view(np.uint64).astype(np.uint32), 625 - left))
        self._next_normal = float(state[5024:5032].view(np.float64)[0]) if state[5040:5044].view(np.int32)[0] else None

    # ------------------------------------------------------------------ draws
    def random(self, n):
        """n 32-bit draws (as uint64)."""
        if self._mt is None:
            self._mt = np.random.RandomState(self._seed & 0xFFFFFFFF)
        return self._mt.randint(0, 1 << 32, size=n, dtype=np.uint32).astype(np.uint64)

    def random64(self, n):
        """n 64-bit draws, each made of two 32-bit ones (the first the high half)."""
        d = self.random(2 * n)
        return (d[0::2] << np.uint64(32)) | d[1::2]


def _generator_in_state(state):
    """How pickle brings a Generator back (its class poses as torch._C's, which pickle cannot find by that name)."""
    g = Generator()
    g.load_state_bytes(state)
    return g


default_generator = Generator()
default_generator.seed()            # (PyTorch seeds its default generator at random when it starts)


def doubles(gen, n):
    """n uniform numbers in [0, 1) of 53 random bits each (PyTorch's uniform_real_distribution<double>)."""
    return (gen.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53


def uniform(gen, shape, npd, low=0.0, high=1.0):
    """uniform_real_distribution: the low 24 (float32) or 53 (float64) bits of a draw, scaled into [low, high)."""
    n = math.prod(shape)
    if npd == np.float64:
        x = doubles(gen, n)
        r, high = fma64(x, high - low, low), np.float64(high)                  # (one rounding: an FMA)
    else:
        x = (gen.random(n) & np.uint64(0xFFFFFF)).astype(_F32) * _F32(2.0 ** -24)
        lo, hi = _F32(low), _F32(high)
        r = (x.astype(np.float64) * (hi - lo) + lo).astype(_F32).astype(npd)        # (an FMA too)
        high = r.dtype.type(high)
    r[r == high] = low                      # (a number rounded up to the interval's end: its start, as PyTorch's)
    return r.reshape(shape)


def normal(gen, shape, npd, mean=0.0, std=1.0, contiguous=True):
    """normal numbers as PyTorch's normal kernel makes them: 16 or more at once by Box-Muller over blocks of 16
    uniform numbers (the last block redrawn when the count is not a multiple of 16), fewer one by one in double
    precision (each pair's second number kept for the next draw)."""
    n = math.prod(shape)
    if n >= 16 and contiguous:
        return _normal_fill(gen, n, npd, mean, std).reshape(shape)
    out = np.empty(n, np.float64)
    for i in range(n):
        if gen._next_normal is not None:
            z, gen._next_normal = gen._next_normal, None
        else:
            u1, u2 = doubles(gen, 2)
            r = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            gen._next_normal = r * math.sin(theta)
            z = r * math.cos(theta)
        out[i] = z
    return (fma64(out, std, mean) if std != 1 or mean != 0 else out).astype(npd).reshape(shape)


def _normal_fill(gen, n, npd, mean, std):
    f32 = npd != np.float64
    if npd == np.float16:           # (half: each block's 16 uniform numbers drawn for it, in float32, not all first)
        data = uniform(gen, (n // 16 * 16,), _F32)
    else:
        data = uniform(gen, (n,), _F32 if f32 else np.float64)
    whole = n // 16 * 16
    out = np.empty(n, data.dtype)
    out[:whole] = _box_muller(data[:whole].reshape(-1, 16), f32, mean, std).reshape(-1)     # (every block at once)
    if n % 16:                      # (the last 16 numbers again, from a block of their own)
        out[n - 16:] = _box_muller(uniform(gen, (1, 16), _F32 if f32 else np.float64), f32, mean, std).reshape(-1)
    return out.astype(npd)


def _box_muller(u, f32, mean, std):
    """16 normal numbers from each row of 16 uniform ones: radius from the first 8, angle from the last 8. float32
    as PyTorch's AVX2 kernel computes them: avx_mathfun's log and sincos (Cephes' float polynomials; GCC fuses their
    multiply-adds), then radius * cos and radius * sin, bit for bit."""
    if not f32:                                     # (the C library's log / cos / sin, as PyTorch's std:: ones)
        radius = np.array([math.sqrt(-2 * math.log(1 - v)) for v in u[:, :8].ravel().tolist()]).reshape(-1, 8)
        theta = (2.0 * math.pi * u[:, 8:]).ravel().tolist()
        cos = np.array([math.cos(t) for t in theta]).reshape(-1, 8)
        sin = np.array([math.sin(t) for t in theta]).reshape(-1, 8)
        return fma64(np.concatenate([radius * cos, radius * sin], axis=1), std, mean)
    radius = np.sqrt(_F32(-2) * _log_ps(_F32(1) - u[:, :8]))
    sin, cos = _sincos_ps(_F32(2 * math.pi) * u[:, 8:])
    pair = np.concatenate([radius * cos, radius * sin], axis=1)
    return fma32(pair, _F32(std), _F32(mean))


def fma32(a, b, c):
    """a * b + c rounded once, for float32 (the product is exact in float64)."""
    return (np.asarray(a, np.float64) * b + c).astype(_F32)


def fma64(a, b, c):
    """a * b + c in float64, rounded once (nearly always: the product and the sum are split exactly, Dekker's and
    Knuth's way, and their errors added last), as PyTorch's range kernels compute it: compiled with fused
    multiply-adds. `torch.arange(-8., 8., 0.1)` and `torch.linspace(-math.pi, math.pi, 2000)` then agree bit for bit."""
    a, b, c = np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64)
    p = a * b
    ah, al = _halves(a)
    bh, bl = _halves(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl          # a * b == p + e exactly
    s, t = two_sum(p, c)                                       # p + c == s + t exactly
    r = s + (t + e)
    # (an infinite operand or a sum of exactly zero: the splitting gives nan or loses -0.; p + c is then right)
    return np.where(np.isfinite(r) & (r != 0), r, s)


def two_sum(a, b):
    """a + b as a pair: the rounded sum and its exact error (Knuth's two-sum)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _halves(x):
    """x as hi + lo, each with at most 26 significant bits (Veltkamp's split: their products are exact)."""
    t = x * 134217729.0                                        # 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi


_LOG_P = (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
          -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)


def _log_ps(x):
    """avx_mathfun's log256_ps: x = m * 2**e with m in [sqrt(1/2), sqrt(2)), a degree-8 polynomial in m - 1."""
    bits = np.maximum(x, np.float32(1.1754944e-38)).view(np.uint32)             # (denormals cut off)
    e = ((bits >> 23).astype(np.int32) - 0x7f).astype(_F32) + _F32(1)
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_F32)     # in [0.5, 1)
    small = m < _F32(0.707106781186547524)
    e = e - small.astype(_F32)
    m = (m - _F32(1)) + np.where(small, m, _F32(0))
    z = m * m
    y = np.full_like(m, _F32(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = fma32(y, m, _F32(p))
    y = fma32(y * m, z, e * _F32(-2.12194440e-4))
    y = fma32(z, _F32(-0.5), y)
    return fma32(e, _F32(0.693359375), m + y)


def _sincos_ps(x):
    """avx_mathfun's sincos256_ps (x >= 0 here): x reduced by multiples of pi / 4 (in three parts), then Cephes'
    sine and cosine polynomials, each where it is accurate, with the octant's signs."""
    j = (x * _F32(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F32)
    for part in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = fma32(y, _F32(part), x)
    z = x * x
    c = fma32(fma32(np.full_like(z, _F32(2.443315711809948E-005)), z, _F32(-1.388731625493765E-003)), z,
             _F32(4.166664568298827E-002))
    c = fma32(c * z, z, -(z * _F32(0.5))) + _F32(1)
    s = fma32(fma32(np.full_like(z, _F32(-1.9515295891E-4)), z, _F32(8.3321608736E-3)), z, _F32(-1.6666654611E-1))
    s = fma32(s * z, x, x)
    first = (j & 2) == 0
    sin, cos = np.where(first, s, c), np.where(first, c, s)
    return np.where(j & 4, -sin, sin), np.where(((j - 2) & 4) == 0, -cos, cos)


def randint(gen, low, high, shape):
    """Integers in [low, high): a draw (64 bits for ranges of 2**28 or more: less modulo bias) modulo the range,
    plus low. (float32 beyond 2**24, where PyTorch warns of lost precision, gives other numbers than PyTorch's.)"""
    n = math.prod(shape)
    span = high - low
    draws = gen.random64(n) if span >= 1 << 28 else gen.random(n)
    return ((draws % np.uint64(span)).astype(np.int64) + low).reshape(shape)


def _uniform53(gen):
    """One uniform number in [0, 1) of 53 random bits (uniform_real_distribution<double>), for the samplers that
    draw until they accept."""
    return (int(gen.random64(1)[0]) & ((1 << 53) - 1)) * 2.0 ** -53


def poisson(gen, rates):
    """Poisson draws of these rates (float64, one by one in memory order) as PyTorch's CPU sample_poisson makes
    them from 53-bit uniform draws: below 10, multiplying uniforms until the product falls to exp(-rate);
    from 10, Hoermann's transformed rejection (PTRS)."""
    def sample(lam):
        if lam >= 10:
            slam, loglam = math.sqrt(lam), math.log(lam)
            b = 0.931 + 2.53 * slam
            a = -0.059 + 0.02483 * b
            invalpha = 1.1239 + 1.1328 / (b - 3.4)
            vr = 0.9277 - 3.6224 / (b - 2)
            while True:
                u = _uniform53(gen) - 0.5
                v = _uniform53(gen)
                us = 0.5 - abs(u)
                k = math.floor((2 * a / us + b) * u + lam + 0.43)
                if us >= 0.07 and v <= vr:
                    return k
                if k < 0 or us < 0.013 and v > us:
                    continue
                if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= \
                        -lam + k * loglam - math.lgamma(k + 1.0):
                    return k
        if lam == 0:
            return 0
        enlam, x, prod = math.exp(-lam), 0, 1.0
        while True:
            prod *= _uniform53(gen)
            if prod > enlam:
                x += 1
            else:
                return x
    return np.array([sample(lam) for lam in rates.ravel().tolist()], np.float64).reshape(rates.shape)


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k):
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def binomial(gen, counts, probs):
    """Binomial draws (count trials of success probability prob, one by one in memory order) as PyTorch's CPU
    sample_binomial makes them from 53-bit uniform draws: inversion (adding geometric gaps) when count * p < 10,
    else BTRS (Hoermann's transformed rejection with squeeze), with p the smaller of prob and 1 - prob. A count or
    prob of 0 or less gives 0, a prob of 1 or more the count, NaN NaN. In the operands' dtype where PyTorch's
    kernel computes in it (count * prob and 1 - prob)."""
    t = counts.dtype.type

    def inversion(n, p):
        geom_sum, num = 0.0, 0
        logprob = float(np.log1p(-t(p)))
        while True:
            geom_sum += math.ceil(math.log(_uniform53(gen)) / logprob)
            if geom_sum > n:
                return num
            num += 1

    def btrs(n, p):
        stddev = math.sqrt(n * p * (1 - p))
        b = 1.15 + 2.53 * stddev
        a = -0.0873 + 0.0248 * b + 0.01 * p
        c = n * p + 0.5
        v_r = 0.92 - 4.2 / b
        r = p / (1 - p)
        alpha = (2.83 + 5.1 / b) * stddev
        m = math.floor((n + 1) * p)
        while True:
            u = _uniform53(gen) - 0.5
            v = _uniform53(gen)
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + c)
            if k < 0 or k > n:
                continue
            if us >= 0.07 and v <= v_r:
                return k
            v = math.log(v * alpha / (a / (us * us) + b))
            upper = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1))) + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                     + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1)) + _stirling_tail(m) + _stirling_tail(n - m)
                     - _stirling_tail(k) - _stirling_tail(n - k))
            if v <= upper:
                return k

    def sample(n, p):
        if n <= 0 or p <= 0:
            return 0.0
        if p >= 1:
            return n
        if p <= 0.5:
            return btrs(n, p) if t(n) * t(p) >= 10 else inversion(n, p)
        if p > 0.5:
            q = float(t(1.0) - t(p))
            return n - (btrs(n, q) if t(n) * t(q) >= 10 else inversion(n, q))
        return math.nan
    return np.array([sample(n, p) for n, p in zip(counts.ravel().tolist(), probs.ravel().tolist())],
                    np.float64).reshape(counts.shape)


def randperm(gen, n):
    """0..n-1 shuffled as PyTorch's CPU randperm does: position i swapped with i + (draw % (n - i))."""
    out = np.arange(n, dtype=np.int64)
    if n > 1:
        draws = gen.random(n - 1)
        for i in range(n - 1):
            z = int(draws[i]) % (n - i)
            out[i], out[i + z] = out[i + z], out[i]
    return out


def bernoulli(gen, shape, p):
    """1 with probability p, else 0 (bernoulli_ with a number): a 53-bit uniform draw below p."""
    n = math.prod(shape)
    u = doubles(gen, n)
    return (u < p).reshape(shape)


def bernoulli_of(gen, probs):
    """1 where a uniform draw falls below each probability (torch.bernoulli of a tensor of them): 24-bit draws
    for float32 probabilities, 53-bit for float64."""
    shape = probs.shape
    u = uniform(gen, shape, np.float64 if probs.dtype == np.float64 else _F32)
    return u < probs


def exponential(gen, n):
    """n numbers from Exp(1) as PyTorch's CPU exponential_ makes them, for float32 and float64 alike: -log1p(-u)
    in double precision, u a 53-bit uniform draw (math.log1p, not numpy's, which can differ in the last bit)."""
    u = doubles(gen, n)
    return np.array([-math.log1p(-x) for x in u.tolist()], np.float64)


def multinomial(gen, probs, n, replacement):
    """torch.multinomial's indices (int64, one row of n per row of the 2-d `probs`), drawn as PyTorch's CPU code
    draws them. One sample, or no replacement: each probability divided by an Exp(1) draw (in probs' dtype), then
    the largest (n == 1) or topk's n largest (a race of exponential clocks, as Gumbel-max). Otherwise,
    row by row: the running sum of the row (in its dtype, float32 for half), divided by the total, the last entry
    set to 1; then for each sample a 53-bit uniform draw and the first entry not below it (a binary search)."""
    rows, k = probs.shape
    if not replacement or n == 1:
        q = probs / exponential(gen, rows * k).reshape(rows, k).astype(probs.dtype)
        if n == 1:
            return np.argmax(q, axis=1).astype(np.int64).reshape(rows, 1)
        from ._selection import topk_order            # (PyTorch's topk of q: its order of ties)
        return topk_order(q, 1, n, True, True, np.argsort(-q, axis=1, kind='stable')).astype(np.int64)
    acc = np.float64 if probs.dtype == np.float64 else _F32
    out = np.empty((rows, n), np.int64)
    for i in range(rows):
        row = probs[i].astype(acc)
        bad = ~(row >= 0) | ~np.isfinite(row)               # (checked entry by entry: the first bad one is reported;
        if bad.any():                                       # NaN fails `>= 0` first, so it is reported as < 0)
            j = int(np.argmax(bad))
            raise RuntimeError('invalid multinomial distribution (encountering probability entry %s)'
                               % ('< 0' if not row[j] >= 0 else '= infinity or NaN'))
        cum = np.cumsum(row, dtype=acc)                     # (a running sum, in order, as PyTorch's loop)
        total = cum[-1] if k else acc(0)
        if not total > 0:
            raise RuntimeError('invalid multinomial distribution (sum of probabilities <= 0)')
        cum = cum / total
        cum[-1] = 1
        u = doubles(gen, n)
        out[i] = np.searchsorted(cum.astype(np.float64), u, side='left')
    return out
