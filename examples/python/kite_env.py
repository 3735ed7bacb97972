#!/usr/bin/env python3
"""kite_env.py: kites as reinforcement-learning environments with the Gymnasium API,
in-process (libawesim through the awesim package): the parked 2plate (ParkedKiteEnv) and the
V3 flying figure eights (FigureEightEnv, below).

    env = ParkedKiteEnv()                      # or gymnasium.make("awesim/ParkedKite-v0")
    env = FigureEightEnv()                     # or gymnasium.make("awesim/FigureEight-v0")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(np.array([0.2]))

ParkedKiteEnv. Action: one number in [-1, 1], the steering: the left line lengthened and the
right one shortened by action * max_steer (0.05 m, the builtin pid's limit), held for one period
(0.05 s, 20 Hz). Observation: heading, azimuth, elevation [rad] and the previous action.
Reward: -(heading^2 + azimuth^2) per step. Terminated: a crash, |azimuth| > 45 deg or the
elevation below 10 deg. Truncated: the end of the episode (duration). The run is
deterministic: the seed is accepted for the API and changes nothing.
Works without Gymnasium (the same methods on a plain class); registered as
awesim/ParkedKite-v0 and awesim/FigureEight-v0 when gymnasium can be imported.
"""
import math
import pathlib
import sys

import numpy as np

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent.parent / "python"))
import awesim  # noqa: E402

try:
    import gymnasium
    _Base = gymnasium.Env
except ImportError:
    gymnasium = None
    _Base = object

SCENARIO = here.parent.parent / "scenarios" / "2plate_parked.yaml"
FIGURE_EIGHT = here.parent.parent / "scenarios" / "v3_figure_eight.yaml"


class Box:
    """The part of gymnasium.spaces.Box this environment needs, without Gymnasium."""

    def __init__(self, low, high, shape):
        self.low = np.full(shape, low, dtype=np.float64)
        self.high = np.full(shape, high, dtype=np.float64)
        self.shape = shape
        self._rng = np.random.default_rng()

    def sample(self):
        return self._rng.uniform(self.low, self.high)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))


def _box(low, high, shape):
    if gymnasium is not None:
        return gymnasium.spaces.Box(low, high, shape, dtype=np.float64)
    return Box(low, high, shape)


class ParkedKiteEnv(_Base):
    metadata = {"render_modes": []}
    observation_shape = (4,)

    def __init__(self, duration=60.0, period=0.05, max_steer=0.05):
        self.duration, self.period, self.max_steer = duration, period, max_steer
        self.action_space = _box(-1.0, 1.0, (1,))
        self.observation_space = _box(-np.inf, np.inf, self.observation_shape)
        self.sim = None

    def _obs(self):
        return np.array([self._heading(), self._azimuth(), self._elevation(), self._last])

    def reset(self, seed=None, options=None):
        if gymnasium is not None:
            super().reset(seed=seed)
        if self.sim is not None:
            self.sim.close()
        self.sim = awesim.Simulation(SCENARIO, set={"run.duration": self.duration,
                                                    "controllers": []})
        s = self.sim
        self._heading = s.getter("wings.main_wing.heading")
        self._azimuth = s.getter("wings.main_wing.azimuth")
        self._elevation = s.getter("wings.main_wing.elevation")
        self._left = s.inputs.setter("segments.kcu_steering_left.l0")
        self._right = s.inputs.setter("segments.kcu_steering_right.l0")
        self._l0 = s.inputs["segments.kcu_steering_left.l0"]
        self._r0 = s.inputs["segments.kcu_steering_right.l0"]
        self._k = 0
        self._last = 0.0
        return self._obs(), {"time": s.time}

    def step(self, action):
        a = float(np.clip(np.asarray(action, dtype=np.float64).reshape(-1)[0], -1.0, 1.0))
        u = a * self.max_steer
        self._left(self._l0 + u)
        self._right(self._r0 - u)
        self._last = a
        self._k += 1
        s = self.sim
        s.step_to(min(self._k * self.period, s.duration))
        obs = self._obs()
        heading, azimuth, elevation = obs[0], obs[1], obs[2]
        reward = -(heading * heading + azimuth * azimuth)
        terminated = bool(s.crashed or abs(azimuth) > math.radians(45.0)
                          or elevation < math.radians(10.0))
        truncated = bool(not terminated and s.time >= s.duration)
        return obs, reward, terminated, truncated, {"time": s.time}

    def close(self):
        if self.sim is not None:
            self.sim.close()
            self.sim = None


class FigureEightEnv(_Base):
    """The V3 kite of scenarios/v3_figure_eight.yaml (brake on: fixed tether, the wind ramped
    12 -> 7 m/s over t = 2..12 s, as the scenario) with its figure-eight controller removed:
    the agent steers.

    Action: one number in [-1, 1]: the differential steering tape u* = action * max_steer
    (0.2 m, the builtin controller's limits), segments.steering_tape_pos_y.l0 = +u and
    steering_tape_neg_y.l0 = -u. u moves toward u* at most rate_limit (0.2 m/s) per second,
    updated at every log time run.dt (0.05 s) inside the step (a jump of the tape rings the
    bridle). One step: period (0.2 s, 4 log intervals).
    Observation: elevation, azimuth, heading, course [rad], the tether force at the winch
    [kN], the steering tape u [m].
    Reward: the mean tether force at the winch over the log times the step passes (the
    channel winches.main_winch.force at t_k + run.dt, ..., t_k + period) [kN]: with the brake
    on the tether does not reel out, so the force is the power proxy (power = force x reel-out
    speed once reeling).
    Terminated: a crash (a wing hit the ground: run.on_crash ends the run, crashed).
    Truncated: the end of the episode (duration).
    """
    metadata = {"render_modes": []}
    observation_shape = (6,)

    def __init__(self, duration=60.0, period=0.2, max_steer=0.2, rate_limit=0.2):
        self.duration, self.period = duration, period
        self.max_steer, self.rate_limit = max_steer, rate_limit
        self.action_space = _box(-1.0, 1.0, (1,))
        self.observation_space = _box(-np.inf, np.inf, self.observation_shape)
        self.sim = None

    def _obs(self):
        return np.array([g() for g in self._get] + [self._u])

    def reset(self, seed=None, options=None):
        if gymnasium is not None:
            super().reset(seed=seed)
        if self.sim is not None:
            self.sim.close()
        self.sim = awesim.Simulation(FIGURE_EIGHT, set={"run.duration": self.duration,
                                                        "controllers": []})
        s = self.sim
        force = s.getter("winches.main_winch.force")
        self._force_kn = lambda: 1e-3 * force()
        self._get = [s.getter("wings.main_wing." + c)
                     for c in ("elevation", "azimuth", "heading", "course")] + [self._force_kn]
        self._pos = s.inputs.setter("segments.steering_tape_pos_y.l0")
        self._neg = s.inputs.setter("segments.steering_tape_neg_y.l0")
        self._u = 0.0
        self._k = 0
        self._nsub = max(1, int(round(self.period / s.dt)))
        return self._obs(), {"time": s.time}

    def step(self, action):
        a = float(np.clip(np.asarray(action, dtype=np.float64).reshape(-1)[0], -1.0, 1.0))
        s = self.sim
        target, du = a * self.max_steer, self.rate_limit * s.dt
        forces = []
        for _ in range(self._nsub):
            if s.crashed or s.time >= s.duration:
                break
            self._u += float(np.clip(target - self._u, -du, du))
            self._pos(self._u)
            self._neg(-self._u)
            s.step(s.dt)
            forces.append(self._force_kn())
        self._k += 1
        obs = self._obs()
        reward = float(np.mean(forces)) if forces else 0.0
        terminated = bool(s.crashed)
        truncated = bool(not terminated and s.time >= s.duration)
        return obs, reward, terminated, truncated, {"time": s.time, "steering": self._u}

    def close(self):
        if self.sim is not None:
            self.sim.close()
            self.sim = None


if gymnasium is not None:
    for _id, _cls in (("awesim/ParkedKite-v0", ParkedKiteEnv),
                      ("awesim/FigureEight-v0", FigureEightEnv)):
        try:
            gymnasium.register(id=_id, entry_point=_cls)
        except Exception:  # registered already (the module imported twice)
            pass


if __name__ == "__main__":
    if sys.argv[1:] == ["figure-eight"]:
        # bang-bang on the azimuth: full tape toward one side until past 25 deg, then back
        env, side, ret, n = FigureEightEnv(duration=60.0), 1.0, 0.0, 0
        obs, info = env.reset(seed=0)
        while True:
            az = math.degrees(obs[1])
            side = -1.0 if side > 0 and az > 25 else 1.0 if side < 0 and az < -25 else side
            obs, r, term, trunc, info = env.step(np.array([side]))
            ret, n = ret + r, n + 1
            if term or trunc:
                break
        print("t = %.3g s, mean tether force %.4g kN, %s" % (info["time"], ret / n,
                                                          "terminated" if term else "truncated"))
        sys.exit(0)
    # a proportional heading hold as the policy: the episode's return
    env = ParkedKiteEnv(duration=20.0)
    obs, info = env.reset(seed=0)
    ret, done = 0.0, False
    while not done:
        obs, r, term, trunc, info = env.step(np.array([np.clip(-4.0 * obs[0] / 0.05, -1, 1)]))
        ret += r
        done = term or trunc
    print("t = %.3g s, return %.6g, %s" % (info["time"], ret,
                                           "terminated" if term else "truncated"))
