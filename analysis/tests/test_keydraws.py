import math

from analysis.catalogue.keydraws import distinct_keys, draws


def test_draws_are_the_workload_class_s() -> None:
    # The same five keys EmbeddedWorkloadTest pins for the Java draw (and floor.c draws): one draw, three places.
    assert draws(20110727, 5, 1_000_000).tolist() == [600_989, 334_309, 387_726, 203_109, 837_401]


def test_a_drawn_load_leaves_about_1_minus_1_over_e_of_its_keys() -> None:
    n = 100_000
    assert distinct_keys(n) == 63_131  # what the Java test counts for the same seed
    assert abs(distinct_keys(n) - n * (1 - math.exp(-1))) <= 0.005 * n
    assert distinct_keys(n, seed=1) != distinct_keys(n)
    assert distinct_keys(1) == 1 and distinct_keys(0) == 0


def test_negative_seeds_wrap_as_java_longs_do() -> None:
    assert all(0 <= k < 1000 for k in draws(-5, 100, 1000).tolist())
