"""torch.save / torch.load with paths, as PyTorch takes them: str or any os.PathLike, a missing parent directory
refused before anything is written."""
import pytest

import engine as torch


def test_save_and_load_take_a_pathlib_path(tmp_path):
    path = tmp_path / 'weights.pt'
    torch.save({'w': torch.tensor([1., 2.])}, path)
    assert torch.load(path)['w'].tolist() == [1., 2.]
    assert torch.load(str(path), map_location='cpu')['w'].tolist() == [1., 2.]


@pytest.mark.parametrize('where', ['missing', 'missing/deeper'])
def test_save_into_a_missing_directory(tmp_path, where):
    parent = tmp_path / where
    for f in (parent / 'x.pt', str(parent / 'x.pt')):
        with pytest.raises(RuntimeError, match='^Parent directory %s does not exist.$' % parent):
            torch.save(torch.ones(2), f)
    assert not (tmp_path / 'missing').exists()


def test_save_refuses_what_is_neither_a_path_nor_writable():
    with pytest.raises(AttributeError, match="expected 'f' to be string, path, or a file-like object with a 'write'"):
        torch.save(torch.ones(2), 3)
