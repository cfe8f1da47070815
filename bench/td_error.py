"""The largest Q-learning error |Q(s, a) - y| of a seeded run, to check
that qlearn.TD_ERROR_BOUND never binds when training from the C's start.

    pypy3 bench/td_error.py GAMES SEED SIDE

It watches every backprop call of qlearn. A run whose largest error
prints as exactly the bound was clipped.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from ttt_rl import nn, qlearn  # noqa: E402


def main(games, seed, side):
    largest, real = [0.0], qlearn.backprop

    def watched(net, targets, rate, scale, outputs=None):
        largest[0] = max([largest[0]] + [abs(o - t) for o, t in zip(outputs, targets)])
        real(net, targets, rate, scale, outputs)

    qlearn.backprop = watched
    rng = random.Random(seed)
    qlearn.train_q_learning(nn.init_neural_network(rng), games, rng, side)
    print("games %d seed %d side %s: largest |Q(s,a) - y| %.4f (bound %g)"
          % (games, seed, side, largest[0], qlearn.TD_ERROR_BOUND))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
