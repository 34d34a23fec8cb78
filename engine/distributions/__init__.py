"""torch.distributions: Normal, MultivariateNormal, Bernoulli, Binomial, Categorical, OneHotCategorical, Poisson,
Uniform, Exponential and Independent, with kl_divergence, composed from the engine's tensor ops exactly as PyTorch composes them (same
graphs, values and, after torch.manual_seed, the same samples)."""
from . import constraints, kl, utils  # noqa: F401
from .bernoulli import Bernoulli
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .uniform import Uniform

__all__ = ['Bernoulli', 'Binomial', 'Categorical', 'Distribution', 'Exponential', 'ExponentialFamily', 'Independent',
           'MultivariateNormal', 'Normal', 'OneHotCategorical', 'OneHotCategoricalStraightThrough', 'Poisson',
           'Uniform', 'kl_divergence', 'register_kl']

for _cls in (Bernoulli, Binomial, Categorical, Distribution, Exponential, ExponentialFamily, Independent,
             MultivariateNormal, Normal, OneHotCategorical, OneHotCategoricalStraightThrough, Poisson, Uniform):
    _cls.__module__ = 'torch' + _cls.__module__[_cls.__module__.index('.distributions'):]   # as type(d) shows it
