"""torch.distributions: Normal, MultivariateNormal, LowRankMultivariateNormal, Bernoulli, ContinuousBernoulli, Binomial,
NegativeBinomial, Categorical, OneHotCategorical, Poisson, Uniform, Exponential, Independent, MixtureSameFamily,
Gamma, Chi2, Beta, Dirichlet, StudentT, FisherSnedecor, Laplace, Cauchy, Geometric, VonMises, GeneralizedPareto and
the TransformedDistributions LogNormal, HalfNormal, HalfCauchy, Gumbel, Pareto, Weibull, InverseGamma, Kumaraswamy,
LogisticNormal, RelaxedBernoulli and RelaxedOneHotCategorical (with torch.distributions.transforms, biject_to and
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
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .fishersnedecor import FisherSnedecor
from .gamma import Gamma
from .generalized_pareto import GeneralizedPareto
from .geometric import Geometric
from .gumbel import Gumbel
from .half_cauchy import HalfCauchy
from .half_normal import HalfNormal
from .independent import Independent
from .inverse_gamma import InverseGamma
from .kl import kl_divergence, register_kl
from .kumaraswamy import Kumaraswamy
from .laplace import Laplace
from .log_normal import LogNormal
from .logistic_normal import LogisticNormal
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .mixture_same_family import MixtureSameFamily
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .negative_binomial import NegativeBinomial
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .pareto import Pareto
from .poisson import Poisson
from .relaxed_bernoulli import RelaxedBernoulli
from .relaxed_categorical import RelaxedOneHotCategorical
from .studentT import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import (AbsTransform, AffineTransform, ComposeTransform, CumulativeDistributionTransform,
                         ExpTransform, IndependentTransform, LowerCholeskyTransform, PositiveDefiniteTransform,
                         PowerTransform, ReshapeTransform, SigmoidTransform, SoftmaxTransform, SoftplusTransform,
                         StickBreakingTransform, TanhTransform, Transform, identity_transform)
from .uniform import Uniform
from .von_mises import VonMises
from .weibull import Weibull

__all__ = ['AbsTransform', 'AffineTransform', 'Bernoulli', 'Beta', 'Binomial', 'Categorical', 'Cauchy',
           'Chi2', 'ComposeTransform', 'ContinuousBernoulli', 'CumulativeDistributionTransform',
           'Dirichlet', 'Distribution', 'ExpTransform', 'Exponential', 'ExponentialFamily',
           'FisherSnedecor', 'Gamma', 'GeneralizedPareto', 'Geometric', 'Gumbel', 'HalfCauchy',
           'HalfNormal', 'Independent', 'IndependentTransform', 'InverseGamma', 'Kumaraswamy', 'Laplace',
           'LogNormal', 'LogisticNormal', 'LowRankMultivariateNormal', 'LowerCholeskyTransform',
           'MixtureSameFamily', 'Multinomial', 'MultivariateNormal', 'NegativeBinomial', 'Normal',
           'OneHotCategorical', 'OneHotCategoricalStraightThrough', 'Pareto', 'Poisson',
           'PositiveDefiniteTransform', 'PowerTransform', 'RelaxedBernoulli', 'RelaxedOneHotCategorical',
           'ReshapeTransform', 'SigmoidTransform', 'SoftmaxTransform', 'SoftplusTransform',
           'StickBreakingTransform', 'StudentT', 'TanhTransform', 'Transform', 'TransformedDistribution',
           'Uniform', 'VonMises', 'Weibull', 'biject_to', 'identity_transform', 'kl_divergence',
           'register_kl', 'transform_to']

for _cls in (Bernoulli, Beta, Binomial, Categorical, Cauchy, Chi2, ContinuousBernoulli, Dirichlet,
             Distribution, Exponential, ExponentialFamily, FisherSnedecor, Gamma, GeneralizedPareto,
             Geometric, Gumbel, HalfCauchy, HalfNormal, Independent, InverseGamma, Kumaraswamy, Laplace,
             LogNormal, LogisticNormal, LowRankMultivariateNormal, MixtureSameFamily, MultivariateNormal,
             NegativeBinomial, Normal, OneHotCategorical, OneHotCategoricalStraightThrough, Pareto,
             Poisson, RelaxedBernoulli, RelaxedOneHotCategorical, StudentT, TransformedDistribution,
             Uniform, VonMises, Weibull, dirichlet._Dirichlet, relaxed_bernoulli.LogitRelaxedBernoulli,
             relaxed_categorical.ExpRelaxedCategorical):
    _cls.__module__ = 'torch' + _cls.__module__[_cls.__module__.index('.distributions'):]   # as type(d) shows it

from .. import _missing_attributes_named_as_torch  # noqa: E402  (imported after the engine: its torch names)
_missing_attributes_named_as_torch()
del _missing_attributes_named_as_torch
