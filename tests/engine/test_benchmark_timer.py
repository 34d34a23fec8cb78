"""torch.utils.benchmark.Timer (the Jacobians and Hessians tutorial times its transforms with it): it runs the
statement after its setup, with torch in scope, and shows its Measurement as PyTorch does."""
import re

from engine.utils.benchmark import Timer


def test_timer_measures_and_shows_itself_as_pytorchs():
    import engine as torch
    m = Timer(stmt='x * 2', globals={'x': torch.ones(3)}).timeit(100)
    lines = repr(m).split('\n')
    assert re.fullmatch(r'<torch\.utils\.benchmark\.utils\.common\.Measurement object at 0x[0-9a-f]+>', lines[0])
    assert lines[1] == 'x * 2' and re.fullmatch(r'  \d+(\.\d+)? (ns|us|ms|s)', lines[2])
    assert lines[3] == '  1 measurement, 100 runs , 1 thread'
    assert m.number_per_run == 100 and len(m.times) == 1 and m.median > 0
    m = Timer('x + 1', setup='x = torch.ones(2)', label='add', description='d').blocked_autorange(min_run_time=0.01)
    assert repr(m).split('\n')[1:4] == ['add', 'd', 'setup: x = torch.ones(2)'] and m.mean > 0
