"""A policy written in Python rolls out on eie.Env: the environments take the caller's
tensors without copying them, and their costs equal independent recomputations."""
import pytest
import torch

import eie


def tour_length(coords, tours):
    """Closed tour lengths [B], computed here in float64 from the coordinates."""
    ordered = coords.double().gather(1, tours.unsqueeze(2).expand(-1, -1, 2))
    return (ordered - ordered.roll(-1, 1)).norm(dim=2).sum(1)


def nearest_neighbour(env, coords):
    """A PyTorch policy: the nearest allowed city to the last one (city 0 first)."""
    B, n, _ = coords.shape
    actions, last = [], torch.zeros(B, dtype=torch.long)
    env.step(last)
    actions.append(last)
    while not env.done().all():
        here = coords[torch.arange(B), last]
        distance = (coords - here.unsqueeze(1)).norm(dim=2)
        last = distance.masked_fill(~env.mask(), float("inf")).argmin(1)
        env.step(last)
        actions.append(last)
    return torch.stack(actions, 1)


def test_tsp_policy_rollout_matches_an_independent_length():
    coords = torch.rand(16, 30, 2, generator=torch.Generator().manual_seed(1))
    env = eie.Env("tsp", {"coords": coords})
    assert env.instances["coords"].data_ptr() == coords.data_ptr()  # not copied
    assert not env.done().any()
    tours = nearest_neighbour(env, coords)
    assert tours.shape == (16, 30)
    assert torch.equal(tours.sort(1).values, torch.arange(30).expand(16, 30))
    assert env.done().all()
    assert torch.allclose(env.cost().double(), tour_length(coords, tours), rtol=1e-5)
    checked = eie.check("tsp", {"coords": coords}, tours)
    assert torch.allclose(checked, tour_length(coords, tours), rtol=1e-12)


def random_rollout(env, generator):
    """Uniform among the allowed actions until every instance is done."""
    actions = []
    while not env.done().all():
        mask = env.mask()
        assert mask.dtype == torch.bool and mask.any(1).all()
        choice = torch.multinomial(mask.float(), 1, generator=generator).squeeze(1)
        env.step(choice)
        actions.append(choice)
    return torch.stack(actions, 1)


def test_cvrp_random_policy_cost_equals_the_check():
    g = torch.Generator().manual_seed(2)
    instances = {"depot": torch.rand(8, 2, generator=g), "coords": torch.rand(8, 15, 2, generator=g),
                 "demand": torch.randint(1, 10, (8, 15), generator=g).float(),
                 "capacity": torch.full((8,), 30.0)}
    env = eie.Env("cvrp", instances)
    routes = random_rollout(env, g)
    assert env.done().all()
    checked = eie.check("cvrp", instances, routes)
    assert torch.allclose(env.cost().double(), checked, rtol=1e-5)


def test_cvrp_done_is_per_instance():
    # One customer that fits, one that needs a second route: done at different steps.
    instances = {"depot": torch.zeros(2, 2), "coords": torch.rand(2, 2, 2),
                 "demand": torch.tensor([[1.0, 1.0], [5.0, 5.0]]),
                 "capacity": torch.tensor([10.0, 5.0])}
    env = eie.Env("cvrp", instances)
    for action in ([1, 1], [2, 0], [0, 2], [0, 0]):
        env.step(torch.tensor(action))
        if action == [0, 2]:
            assert env.done().tolist() == [True, False]
    assert env.done().all()


def test_packing_random_policy_cost_is_minus_the_checked_load_rate():
    g = torch.Generator().manual_seed(3)
    instances = {"boxes": torch.randint(10, 51, (4, 6, 3), generator=g, dtype=torch.int32),
                 "bin": torch.tensor([[120, 100]], dtype=torch.int32).repeat(4, 1)}
    env = eie.Env("bpp3d", instances)
    actions = random_rollout(env, g)
    assert actions.shape == (4, 12)
    checked = eie.check("bpp3d", instances, actions)
    assert torch.allclose(env.cost().double(), checked, rtol=1e-5)
    assert (env.cost() < 0).all()


def test_a_forbidden_action_is_refused_and_changes_nothing():
    coords = torch.rand(2, 5, 2)
    env = eie.Env("tsp", {"coords": coords})
    env.step(torch.tensor([0, 1]))
    with pytest.raises(ValueError, match="action 0 of instance 0 is not allowed"):
        env.step(torch.tensor([0, 2]))
    with pytest.raises(ValueError, match="int64"):
        env.step(torch.tensor([2.0, 2.0]))
    with pytest.raises(ValueError, match="shape"):
        env.step(torch.tensor([2, 2, 2]))
    with pytest.raises(ValueError, match="not allowed"):
        env.step(torch.tensor([7, 2]))
    assert env.steps == 1
    assert env.mask().sum().item() == 8
