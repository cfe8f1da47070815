"""Expert iteration: a net learns connect four from a search that uses the net.

The idea in one sentence: a tree search (the expert) plays better than the net alone, because
it looks ahead; so let the search play games against itself, teach the net the moves the search
chose, and give the search the better net as its guide for the next round.

Why the C's rule is not enough here. learn.py nudges the net towards the moves of games it won
against a random player: it never looks ahead, so it can only learn what its own play happens
to stumble on. In tic-tac-toe that is most of the game; in connect four it learns to beat a
random player and little else (README, "Connect four: the C's first question").

The loop (Anthony, Tian and Barber, "Thinking Fast and Slow with Deep Learning and Tree
Search", NeurIPS 2017; the same loop trains AlphaZero, Silver et al. 2017):
  1. Self-play: in every position, mcts.puct_visits searches, with the net's policy as its
     prior (which moves to try first) and random games to the end as its judge; the game
     goes on with the search's move.
  2. Learning: in every position, the target is the search's visit distribution (the share
     of its simulations each column got), learned by cross-entropy, the C's backprop with a
     reward scaling of 1 (nn.backprop: the output delta is p - t).
  3. Repeat with the new net. The net alone (no search) is what ttt-play and ttt-eval use.

The games of a round are independent, so they can be played in parallel: play_games is a
parameter (the lab passes one that uses worker processes). Each game has its own seed, drawn
in order from the training's random.Random, so a seed gives the same net however many
processes play. No C counterpart.
"""

import random

from . import connect4
from .game import TIE, to_move
from .mcts import puct_visits
from .nn import backprop, forward_pass, softmax
from .policy_iteration import shuffled

SIMULATIONS = 200         # PUCT simulations a move
GAMES_PER_ROUND = 300     # self-play games between two rounds of learning
LEARNING_RATE = 0.02      # smaller than the C's 0.1: every position is seen several times
REPLAY_POSITIONS = 30000  # positions learned from a round: its own (about 9,000 with their
                          # mirror images), and earlier ones kept at random up to this many
EPOCHS = 3                # passes over them a round, each in a new random order
RANDOM_OPENING = 20       # a game opens with 0 to this many random moves (not learned)


def policy(net, board):
    """Return the net's policy on `board` (42 cells): 7 probabilities, its softmax over the
    open columns only, 0 for a full column. The prior of the search."""
    forward_pass(net, connect4.board_to_inputs(board))
    legal = connect4.legal_moves(board)
    probs = [0.0] * connect4.OUTPUT_SIZE
    for column, p in zip(legal, softmax([net.raw_logits[c] for c in legal])):
        probs[column] = p
    return probs


def self_play_game(net, seed, simulations=SIMULATIONS):
    """Play one game of connect four, the search against itself, and return (positions,
    winner): positions is a list of (board, target), a copy of each board before a move and
    the search's visit distribution there (7 floats summing to 1); winner is X, O or TIE.

    Takes the net (the search's prior; not changed), an int seed for this game's
    random.Random and the simulations a move. The game opens with 0 to RANDOM_OPENING random
    moves, a number drawn for each game: games that differ from each other, and positions like
    the ones a weak or random opponent leads to, threats and all. Those moves are not learned.
    Then the search plays its most visited column; a column that wins at once is played
    without a search (its target is that column alone).
    """
    rng = random.Random(seed)
    board, positions = connect4.init_game(), []
    opening = int(rng.random() * (RANDOM_OPENING + 1))
    for ply in range(connect4.BOARD_CELLS):
        mover = to_move(board)
        column = connect4.winning_column(board, mover)
        if ply < opening:
            column = connect4.get_random_move(board, rng)
        elif column is None:
            visits = puct_visits(board, rng, lambda b: policy(net, b), simulations, connect4)
            positions.append((list(board), [v / sum(visits) for v in visits]))
            column = visits.index(max(visits))
        else:
            positions.append((list(board), [float(c == column)
                                            for c in range(connect4.OUTPUT_SIZE)]))
        if connect4.play_move(board, column, mover):
            return positions, mover
    return positions, TIE


def learn_positions(net, positions, rng, learning_rate=LEARNING_RATE):
    """One pass of learning over `positions` (a list of (board, target)) in a random order:
    for each, forward_pass, then backprop towards the target (cross-entropy over the 7
    outputs; a full column's target is 0, as a taken cell's is in the C's rule)."""
    positions[:] = shuffled(positions, rng)   # in place: the caller's memory is shuffled too
    for board, target in positions:
        forward_pass(net, connect4.board_to_inputs(board))
        backprop(net, target, learning_rate, 1.0)


def train_expert_iteration(net, num_games, rng, simulations=SIMULATIONS,
                           learning_rate=LEARNING_RATE, report=None, play_games=None):
    """Train `net` (84-H-7, in place) by expert iteration for `num_games` self-play games.

    Takes the network, the number of games (played in rounds of GAMES_PER_ROUND, the last
    one shorter), a random.Random (each game's seed and the order of learning come from it),
    the simulations a move and the learning rate. play_games(net, seeds) -> [(positions,
    winner) per seed, in order], or None to stop at once (the default plays them here, one
    after the other, with self_play_game). After each round, if `report` is given, calls
    report(net, games_played, winners); if it returns True, training stops there.
    Returns the number of games whose positions the net has learned.

    Each position is also learned mirrored left to right (connect4.mirror): the game is
    symmetric, so that is twice the data for free.
    """
    if play_games is None:
        def play_games(net, seeds):
            return [self_play_game(net, seed, simulations) for seed in seeds]
    memory, games = [], 0
    while games < num_games:
        seeds = [int(rng.random() * 2 ** 53) for _ in range(min(GAMES_PER_ROUND,
                                                                 num_games - games))]
        played = play_games(net, seeds)
        if played is None:   # stopped: the net stays as the last whole round left it
            break
        for positions, _ in played:
            for board, target in positions:
                memory.append((board, target))
                memory.append((connect4.mirror(board), target[::-1]))
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

