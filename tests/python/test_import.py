import benchreport as br
from benchreport import _core


def test_one_version_string():
    assert br.__version__ == _core.__version__


def test_input_error_is_value_error():
    assert issubclass(br.InputError, ValueError)
