"""torch.special.gammainc / gammaincc, torch.igamma / igammac and the gamma kernels at torch level, in the engine
alone (these run inside Pyodide too): values compared exactly (as Python floats) with what real PyTorch 2.13 gives
for the same code (written in below; tests/differential/test_s46_special_vs_torch.py compares the two live)."""
import pytest

import engine as torch

A = [0.0132, 1.6333, 6.1686, 0.0036, 0.017, 431.2739, 0.0062, 0.0134, 560.1866, 8.0405, 0.3003, 1.9118, 13.694,
    0.0888, 0.0149, 69.7219, 15.0999, 1.9367, 101.2481, 3.1205, 855.6636, 0.0354, 3.3151, 1.3326, 0.2448, 5.4235,
    0.0528, 83.8169, 195.4562, 0.0132, 1.0746, 0.091, 0.0073, 283.5181, 0.6632, 0.0169, 15.7008, 0.0343, 304.4796,
    0.0417]
X = [0.0128, 1.2076, 8.9946, 0.0025, 0.169, 10.6428, 0.0038, 0.0122, 378.2309, 0.4225, 0.473, 0.0111, 8.0327,
    0.0747, 681.3705, 328.4277, 17.1338, 1.5483, 110.6878, 3.105, 804.9298, 1.0453, 3.7235, 1.4615, 28.2825,
    5.0745, 0.0359, 0.08, 71.2808, 0.0125, 0.0149, 0.1358, 0.0086, 533.6297, 0.6758, 6.2498, 10.1698, 8.1123,
    658.1662, 0.0326]
# torch.igamma / igammac of the 40 pairs in float64 at once (its vectorized loop for the first 32)
IGAMMA64 = [0.9510210549561932, 0.46083705758946863, 0.8707083337626249, 0.9806782070675327, 0.9769113918517875,
    0.0, 0.9694491529606716, 0.9496920041466895, 1.5079020378461524e-18, 1.532640231786292e-08, 0.8044167799472022,
    9.852059632036516e-05, 0.04278295234300082, 0.8258606465978204, 1.0, 1.0, 0.721262126913868,
    0.47822872391470694, 0.8272499074191884, 0.5718979912971923, 0.03933561944102126, 0.992530568268811,
    0.6547450776668677, 0.6547775095002895, 0.999999999999989, 0.4965195334965753, 0.8613872421046773,
    7.217838014955035e-219, 8.996883796579167e-34, 0.9507270695332435, 0.010449439987651526, 0.8635653755175867,
    0.9698528286957986, 1.0, 0.6660150079323346, 0.9999952288384981, 0.06453500887456183, 0.9999987472638658, 1.0,
    0.8856932006332603]
IGAMMAC64 = [0.04897894504380695, 0.5391629424105313, 0.12929166623737484, 0.019321792932467163,
    0.023088608148213147, 1.0, 0.03055084703932825, 0.05030799585331056, 1.0, 0.9999999846735976,
    0.19558322005279774, 0.9999014794036797, 0.9572170476569992, 0.17413935340217945, 2.9485057525398857e-301,
    4.79085665686049e-68, 0.2787378730861322, 0.5217712760852931, 0.1727500925808116, 0.4281020087028077,
    0.9606643805589787, 0.007469431731188961, 0.34525492233313215, 0.3452224904997085, 1.098425487766911e-14,
    0.5034804665034247, 0.13861275789532285, 1.0, 1.0, 0.04927293046675648, 0.9895505600123484, 0.1364346244824129,
    0.03014717130420135, 4.7213259233672295e-33, 0.33398499206766513, 4.771161501897172e-06, 0.9354649911254381,
    1.2527361341068823e-06, 4.1728460637399204e-54, 0.1143067993667396]
# igamma in tensors of 5 (its scalar loop, compiled without fused multiply-adds)
IGAMMA64_SMALL = [0.9510210549561932, 0.46083705758946863, 0.8707083337626249, 0.9806782070675327,
    0.9769113918517875, 0.0, 0.9694491529606716, 0.9496920041466895, 1.5079020378461524e-18,
    1.5326402317862894e-08, 0.8044167799472022, 9.8520596320365e-05, 0.04278295234300082, 0.8258606465978204, 1.0,
    1.0, 0.721262126913868, 0.47822872391470705, 0.8272499074191884, 0.5718979912971921, 0.03933561944102126,
    0.992530568268811, 0.6547450776668677, 0.6547775095002895, 0.999999999999989, 0.4965195334965753,
    0.8613872421046773, 7.217838014955035e-219, 8.996883796579167e-34, 0.9507270695332435, 0.010449439987651526,
    0.8635653755175867, 0.9698528286957986, 1.0, 0.6660150079323346, 0.9999952288384981, 0.06453500887456183,
    0.9999987472638658, 1.0, 0.8856932006332603]
# float32 (all 40 pairs at once; the engine matches but where glibc's float libm functions round differently)
IGAMMA32 = [0.9510212540626526, 0.46083715558052063, 0.8707082271575928, 0.9806784391403198, 0.9769110679626465,
    0.0, 0.9694491624832153, 0.9496919512748718, 1.5079071398947401e-18, 1.5326424573913755e-08,
    0.8044166564941406, 9.852056973613799e-05, 0.04278293251991272, 0.8258607387542725, 1.0, 1.0,
    0.7212619781494141, 0.4782288074493408, 0.8272499442100525, 0.5718979835510254, 0.03933575004339218,
    0.9925305843353271, 0.6547448635101318, 0.6547772288322449, 1.0, 0.49651944637298584, 0.861387312412262, 0.0,
    8.996462343026061e-34, 0.9507274031639099, 0.010449441149830818, 0.8635655641555786, 0.9698529839515686, 1.0,
    0.6660150289535522, 0.999995231628418, 0.06453503668308258, 0.9999987483024597, 1.0, 0.8856930732727051]
KEPT32 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    30, 31, 32, 33, 34, 35, 36, 37, 38, 39]


def test_float64_bit_for_bit():
    a, x = torch.tensor(A, dtype=torch.float64), torch.tensor(X, dtype=torch.float64)
    assert torch.igamma(a, x).tolist() == IGAMMA64
    assert torch.special.gammainc(a, x).tolist() == IGAMMA64
    assert torch.igammac(a, x).tolist() == IGAMMAC64
    assert a.igammac(x).tolist() == IGAMMAC64
    small = [v for i in range(0, 40, 5) for v in torch.igamma(a[i:i + 5], x[i:i + 5]).tolist()]
    assert small == IGAMMA64_SMALL


def test_float32():
    got = torch.igamma(torch.tensor(A), torch.tensor(X)).tolist()
    assert [got[i] for i in KEPT32] == [IGAMMA32[i] for i in KEPT32]
    assert len(KEPT32) >= 36
    assert all(abs(g - w) <= 1e-4 * abs(w) for g, w in zip(got, IGAMMA32))


def test_edges_and_dtypes():
    inf, nan = float('inf'), float('nan')
    a = torch.tensor([0., 0., 1., inf, inf, -1., 2., 1.], dtype=torch.float64)
    x = torch.tensor([1., 0., 0., 3., inf, 1., inf, -1.], dtype=torch.float64)
    assert str(torch.igamma(a, x).tolist()) == '[1.0, nan, 0.0, 0.0, nan, nan, 1.0, nan]'
    assert str(torch.igammac(a, x).tolist()) == '[0.0, nan, 1.0, 1.0, nan, nan, 0.0, nan]'
    assert torch.igamma(torch.tensor([1]), torch.tensor([1.5])).dtype == torch.float32
    assert torch.igamma(torch.tensor([1.], dtype=torch.float16), torch.tensor([1.], dtype=torch.float16)).tolist() == [
        0.63232421875]
    with pytest.raises(NotImplementedError, match='"igammac_cpu" not implemented for \'Long\''):
        torch.special.gammaincc(torch.tensor([1, 2]), torch.tensor([1, 2]))
    message = r"special_gammainc\(\): argument 'other' \(position 2\) must be Tensor, not float"
    with pytest.raises(TypeError, match=message):
        torch.special.gammainc(torch.ones(2), 2.)


def test_gradients():
    a = torch.tensor([0.5, 2., 3.], requires_grad=True)
    x = torch.tensor([1., 2., 0.5], requires_grad=True)
    y = torch.special.gammainc(a, x)
    assert y.grad_fn.name() == 'IgammaBackward0'
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not implemented."):
        y.sum().backward()
    z = torch.special.gammaincc(a.detach(), x)
    assert z.grad_fn.name() == 'IgammacBackward0'
    z.sum().backward()
    assert x.grad.tolist() == [-0.20755375921726227, -0.2706705629825592, -0.0758163332939148]


def test_gamma_kernels_at_torch_level():
    torch.manual_seed(0)
    a = torch.tensor([0.5, 2., 3.], requires_grad=True)
    y = torch._standard_gamma(a)
    y.sum().backward()
    assert y.tolist() == [0.0007893581641837955, 0.6315405964851379, 2.9372358322143555]
    assert a.grad.tolist() == [0.011342937126755714, 0.57441246509552, 1.0458552837371826]
    assert repr(torch._sample_dirichlet).startswith('<built-in method _sample_dirichlet of type object')
    with pytest.raises(RuntimeError, match='Found dtype Double but expected Float'):
        torch._standard_gamma_grad(torch.tensor([1.]), torch.tensor([0.5], dtype=torch.float64))
    assert 'gammainc' in dir(torch.special) and 'gammaincc' in dir(torch.special)
