"""ExponentialFamily: the base of Normal, Bernoulli and Exponential (kl_divergence refuses to mix two of them
without a formula of their own)."""
from .distribution import Distribution


class ExponentialFamily(Distribution):
    """A distribution of the exponential family."""
