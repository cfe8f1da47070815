"""Expert iteration: a net learns connect four from a search that uses the net.

The idea in one sentence: a tree search (the expert) plays better than the net alone, because
it looks ahead; so let the search play games against itself, teach the net the moves the search
chose and how each position turned out, and give the search the better net as its guide for the
next round.

Why the C's rule is not enough here. learn.py nudges the net towards the moves of games it won
against a random player: it never looks ahead, so it can only learn what its own play happens
to stumble on. In tic-tac-toe that is most of the game; in connect four it learns to beat a
random player and little else (README, "Connect four: the C's first question").

The loop (Anthony, Tian and Barber, "Thinking Fast and Slow with Deep Learning and Tree
Search", NeurIPS 2017), in AlphaZero's form (Silver et al., Science 2018):
  1. Self-play: in every position, mcts.puct_visits searches, with the net's policy as its
     prior (which moves to try first) and the net's value (its eighth output, nn.py) as the
     judge of each new position. The first SAMPLED_PLIES moves are drawn in proportion to the
     visits, and the root's prior gets Dirichlet noise: varied games. Then the search plays its
     most visited column. A column that wins at once is played without a search.
  2. Learning: every position of the game is learned for two targets, the policy towards the
     search's visit shares (cross-entropy; a win at once: that column alone) and the value
     towards (z + q) / 2, by one backprop (nn.backprop with value_target), from a replay
     memory of this and earlier rounds. z is the game's result for the player to move there
     (+1, 0, -1), AlphaZero's target: one game's outcome, which credits every move of a won
     game alike. q is the search's value there (its mean result, mcts.puct_visits): less
     noisy, but only as good as the net it asked. Their mean learned better here than z alone
     (docs/measurements.md), as it did for Oracle's connect-four AlphaZero ("Lessons From
     AlphaZero (part 4): Improving the Training Target", 2018).
  3. Repeat with the new net. The net alone (no search) is what ttt-play and ttt-eval use by
     default; search_move plays it with its search (--search N).

The games of a round are independent, so they can be played in parallel: play_games is a
parameter (the lab passes one that uses worker processes). Each game has its own seed, drawn
in order from the training's random.Random, so a seed gives the same net however many
processes play. No C counterpart. The settings are a research prototype's (the project's
notes) but two, measured here (docs/measurements.md): the replay memory, doubled, and the
value's target, (z + q) / 2 where the prototype learned z.
"""

import functools
import random

from . import connect4
from .game import TIE, to_move
from .mcts import puct_visits, result
from .nn import backprop, forward_pass, get_computer_move, softmax
from .policy_iteration import shuffled

HIDDEN_SIZE = 150          # hidden units of `make c4`'s net, as a research prototype's (--hidden)
SIMULATIONS = 100          # PUCT simulations a move in self-play
GAMES_PER_ROUND = 200      # self-play games between two rounds of learning
LEARNING_RATE = 0.02       # smaller than the C's 0.1: every position is seen several times
REPLAY_POSITIONS = 80000   # positions learned in a round: its own (with their mirror images),
                           # and earlier ones kept at random up to this many
EPOCHS = 2                 # passes over them a round, each in a new random order
SAMPLED_PLIES = 10         # the first moves of a game drawn in proportion to the visits
DIRICHLET_ALPHA = 1.0      # the root's noise: Dirichlet(1.0), uniform over the distributions


def policy_and_value(net, board):
    """Return (probs, value) of the net on `board` (42 cells): its policy, 7 probabilities,
    its softmax over the open columns only (0 for a full column), the search's prior; and
    its value for the player to move, in (-1, 1), or None for a net without a value head
    (the search then judges by a random game)."""
    forward_pass(net, connect4.board_to_inputs(board))
    legal = connect4.legal_moves(board)
    probs = [0.0] * connect4.OUTPUT_SIZE
    for column, p in zip(legal, softmax([net.raw_logits[c] for c in legal])):
        probs[column] = p
    return probs, net.value


def search_move(evaluate, board, simulations, rng, noise=None):
    """Return (column, visits, value): the search's move on `board` (a game in progress), its
    visits per column (7 ints) and its value of `board` for the player to move, in [-1, 1];
    or (that column, None, 1.0) if a column wins at once (played without a search).
    Takes evaluate(board) -> (probs, value), the search's guide (a net's:
    functools.partial(policy_and_value, net)), the number of simulations, a random.Random
    and the root's noise (mcts.puct_visits). The most visited column is played, the lowest
    on equal visits."""
    column = connect4.winning_column(board, to_move(board))
    if column is not None:
        return column, None, 1.0
    visits, value = puct_visits(board, rng, evaluate, simulations, connect4, noise)
    return visits.index(max(visits)), visits, value


def player(net, simulations=0):
    """Return a player of `net`, board -> column: its favourite open column (simulations 0:
    nn.get_computer_move), or its search's (search_move, seeded: the same column each time)."""
    if not simulations:
        return functools.partial(get_computer_move, net, rules=connect4)
    evaluate = functools.partial(policy_and_value, net)
    return lambda board: search_move(evaluate, board, simulations, random.Random(0))[0]


def dirichlet_noise(board, rng):
    """Return 7 weights summing to 1, 0 on the full columns: a draw of Dirichlet(alpha) over
    the open columns, as gamma draws normalised (AlphaZero's noise at the root)."""
    draws = [rng.gammavariate(DIRICHLET_ALPHA, 1.0) if board[column] == connect4.EMPTY else 0.0
             for column in range(connect4.COLUMNS)]
    return [d / sum(draws) for d in draws]


def self_play_game(net, seed, simulations=SIMULATIONS):
    """Play one game of connect four, the search against itself, and return (positions,
    winner): positions is a list of (board, target, value target) for every move, a copy of
    the board before it, the search's visit shares there (7 floats summing to 1; a win at
    once: 1 on that column) and (z + q) / 2, the mean of z, the game's result for the player
    to move there (+1, 0 or -1), and q, the search's value there (a win at once: 1); winner
    is X, O or TIE. Takes the net (not changed), an int seed for this game's random.Random
    and the simulations a move.
    """
    rng, evaluate = random.Random(seed), functools.partial(policy_and_value, net)
    board, moves, winner = connect4.init_game(), [], TIE
    for ply in range(connect4.BOARD_CELLS):
        mover = to_move(board)
        column, visits, q = search_move(evaluate, board, simulations, rng,
                                        dirichlet_noise(board, rng))
        if visits is None:   # a win at once
            target = [float(c == column) for c in range(connect4.COLUMNS)]
        else:
            target = [v / sum(visits) for v in visits]
            if ply < SAMPLED_PLIES:   # varied openings: a column drawn by its visits
                column = rng.choices(range(connect4.COLUMNS), weights=visits)[0]
        moves.append((list(board), target, mover, q))
        if connect4.play_move(board, column, mover):
            winner = mover
            break
    return [(before, target, (result(winner, mover) + q) / 2)
            for before, target, mover, q in moves], winner


def learn_positions(net, positions, rng, learning_rate=LEARNING_RATE):
    """One pass of learning over `positions`, a list of (board, target, value target), in a
    new random order (the list itself is shuffled in place): for each, forward_pass, then
    backprop towards the target (cross-entropy over the 7 outputs; a full column's target is
    0, as a taken cell's is in the C's rule) and the value target (squared error)."""
    positions[:] = shuffled(positions, rng)   # in place: the caller's memory is shuffled too
    for board, target, value_target in positions:
        forward_pass(net, connect4.board_to_inputs(board))
        backprop(net, target, learning_rate, 1.0, value_target=value_target)


def train_expert_iteration(net, num_games, rng, simulations=SIMULATIONS,
                           learning_rate=LEARNING_RATE, report=None, play_games=None, stop=None):
    """Train `net` (84-H-8, with a value head; in place) by expert iteration for `num_games`
    self-play games.

    Takes the network, the number of games (played in rounds of GAMES_PER_ROUND, the last
    one shorter), a random.Random (each game's seed and the order of learning come from it),
    the simulations a move and the learning rate. play_games(net, seeds) -> [(positions,
    winner) per seed, in order], or None to stop at once (the default plays them here, one
    after the other, with self_play_game, and stops when stop(), if given, is True after a
    game). After each round, if `report` is given, calls report(net, games_played, winners);
    if it returns True, training stops there.
    Returns the number of games whose positions the net has learned.

    Each position is also learned mirrored left to right (connect4.mirror): the game is
    symmetric, so that is twice the data for free.
    """
    if play_games is None:
        def play_games(net, seeds):
            played = []
            for seed in seeds:
                played.append(self_play_game(net, seed, simulations))
                if stop is not None and stop():   # the round is dropped
                    return None
            return played
    memory, games = [], 0
    while games < num_games:
        seeds = [int(rng.random() * 2 ** 53) for _ in range(min(GAMES_PER_ROUND,
                                                                 num_games - games))]
        played = play_games(net, seeds)
        if played is None:   # stopped: the net stays as the last whole round left it
            break
        for positions, _ in played:
            for board, target, value_target in positions:
                memory.append((board, target, value_target))
                memory.append((connect4.mirror(board), target[::-1], value_target))
        # The new positions are at the end; learning shuffled the earlier ones, so cutting
        # from the front keeps a random sample of them (a replay memory; DQN's keeps the
        # latest instead, Mnih et al. 2015).
        memory = memory[-REPLAY_POSITIONS:]
        for _ in range(EPOCHS):
            learn_positions(net, memory, rng, learning_rate)
        games += len(seeds)
        if report is not None and report(net, games, [winner for _, winner in played]):
            break
    return games
