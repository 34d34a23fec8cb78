"""torch.distributions: Normal, MultivariateNormal, Bernoulli, Binomial, Categorical, OneHotCategorical, Poisson,
Uniform, Exponential, Independent, Gamma, Chi2, Beta, Dirichlet, StudentT, Laplace, Cauchy, Geometric and the
TransformedDistributions LogNormal, HalfNormal and Gumbel (with torch.distributions.transforms, biject_to and
transform_to), with kl_divergence, composed from the engine's tensor ops exactly as PyTorch composes them (same
graphs, values and, after torch.manual_seed, the same samples)."""
from . import constraints, kl, transforms, utils  # noqa: F401
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .chi2 import Chi2
from .constraint_registry import biject_to, transform_to
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .studentT import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import (AbsTransform, AffineTransform, ComposeTransform, CumulativeDistributionTransform,
                         ExpTransform, IndependentTransform, LowerCholeskyTransform, PositiveDefiniteTransform,
                         PowerTransform, ReshapeTransform, SigmoidTransform, SoftmaxTransform, SoftplusTransform,
                         StickBreakingTransform, TanhTransform, Transform, identity_transform)
from .uniform import Uniform

__all__ = ['AbsTransform', 'AffineTransform', 'Bernoulli', 'Beta', 'Binomial', 'Categorical', 'Cauchy', 'Chi2',
           'ComposeTransform', 'CumulativeDistributionTransform', 'Dirichlet', 'Distribution', 'ExpTransform',
           'Exponential', 'ExponentialFamily', 'Gamma', 'Geometric', 'Gumbel', 'HalfNormal', 'Independent',
           'IndependentTransform', 'Laplace', 'LogNormal', 'LowerCholeskyTransform', 'Multinomial',
           'MultivariateNormal', 'Normal', 'OneHotCategorical', 'OneHotCategoricalStraightThrough', 'Poisson',
           'PositiveDefiniteTransform', 'PowerTransform', 'ReshapeTransform', 'SigmoidTransform', 'SoftmaxTransform',
           'SoftplusTransform', 'StickBreakingTransform', 'StudentT', 'TanhTransform', 'Transform',
           'TransformedDistribution', 'Uniform', 'biject_to', 'identity_transform', 'kl_divergence', 'register_kl',
           'transform_to']

for _cls in (Bernoulli, Beta, Binomial, Categorical, Cauchy, Chi2, Dirichlet, Distribution, Exponential,
             ExponentialFamily, Gamma, Geometric, Gumbel, HalfNormal, Independent, Laplace, LogNormal,
             MultivariateNormal, Normal, OneHotCategorical, OneHotCategoricalStraightThrough, Poisson, StudentT,
             TransformedDistribution, Uniform, dirichlet._Dirichlet):
    _cls.__module__ = 'torch' + _cls.__module__[_cls.__module__.index('.distributions'):]   # as type(d) shows it
