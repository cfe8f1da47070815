"""Q-learning: a second learning rule, with the same network and file.

The idea in one sentence: read the network's 9 logits as action values,
Q(s, a) = the return O expects after playing cell a in position s, and
move each value towards what the next position shows it is worth.

learn.py (the C's rule) waits for the end of a game and pushes every move
towards or away from the move played; it always plays its favourite move,
so a move it never tries is never found to be better. Here the net
explores (epsilon-greedy), and each value learns from the next one
(bootstrapping), so a good result travels back move by move. This is
Watkins's Q-learning (1989; Sutton and Barto, 2nd ed., section 6.5) with a
network for the table, the method of DQN (Mnih et al., "Human-level control
through deep reinforcement learning", Nature, 2015) without its replay
memory and target network. No C counterpart: ttt.c's comment says TD
learning "can't really" be done here; this is one way it can.

Softmax keeps the order of the logits, so a Q-trained file plays unchanged
in ttt-play and in the C's play: the same file, the same player.
"""

import collections

from .game import EMPTY, O, TIE, X, board_to_inputs, get_random_move, init_game
from .learn import DEFAULT_SETTINGS, REPORT_INTERVAL, game_reward, play_against_random
from .nn import backprop, forward_pass, get_computer_move

Q_LEARNING_RATE = 0.01   # smaller than the C's 0.1: each step chases a moving target
EPSILON = 0.3            # chance of a random move at the start of training...
EPSILON_DECAY = 0.8      # ...falling linearly to 0 over this share of the games
GAMMA = 1.0              # discount: 1 values a late win as much as a quick one
FINAL_RATE_SHARE = 0.1   # the learning rate falls to this share of itself by the end

# The C's settings (the same rewards), plus exploration and discount.
QSettings = collections.namedtuple("QSettings", DEFAULT_SETTINGS._fields + ("epsilon", "gamma"))
DEFAULT_Q_SETTINGS = QSettings(Q_LEARNING_RATE, *DEFAULT_SETTINGS[1:], EPSILON, GAMMA)


def epsilon_at(game, num_games, epsilon=EPSILON):
    """Return the exploration rate for game `game` (0-based) of `num_games`:
    `epsilon` at the start, falling linearly to 0 after EPSILON_DECAY of
    the games, so that the end of training is all exploitation: the values
    of the moves the net will play are then learned under its own final
    policy (measured: a floor of 0.05 or 0.1 left fewer nets unbeatable;
    docs/measurements.md)."""
    decay_games = EPSILON_DECAY * num_games
    return epsilon * max(0.0, 1.0 - game / decay_games) if decay_games else 0.0


def learning_rate_at(game, num_games, learning_rate=Q_LEARNING_RATE):
    """Return the learning rate for game `game` (0-based) of `num_games`:
    `learning_rate` while the net explores, then falling linearly to
    FINAL_RATE_SHARE of it over the greedy games at the end. Smaller steps
    average the values over more games, so that two moves whose values
    differ by little are told apart (step sizes that fall: Sutton and
    Barto, section 2.5)."""
    greedy_from = EPSILON_DECAY * num_games
    if game < greedy_from:
        return learning_rate
    fall = (game - greedy_from) / max(num_games - greedy_from, 1)
    return learning_rate * (1.0 - (1.0 - FINAL_RATE_SHARE) * fall)


def best_value(net, board):
    """Return max over the empty cells a of Q(board, a): the value of the
    position if the net plays its best move from it (a float)."""
    forward_pass(net, board_to_inputs(board))
    return max(q for q, cell in zip(net.raw_logits, board) if cell == EMPTY)


def q_learn_from_game(net, move_history, winner, nn_symbol=O, settings=DEFAULT_Q_SETTINGS):
    """Update the network from one finished game by Q-learning.

    Takes the network, the game's moves (cells 0-8, X first), the winner
    (X, O or TIE), the net's side and the QSettings. Each of the net's moves
    is one step: position s, action a, and what followed: the position s'
    at its next move, or the end of the game. Returns nothing.
    The counterpart of learn.learn_from_game (C), with another rule.
    """
    reward = game_reward(winner, nn_symbol, settings)
    # The positions the net moved in, and its moves. The opponent's reply
    # is part of the step: s' is the board when the net moves again.
    steps, board = [], init_game()
    for move_idx, move in enumerate(move_history):
        symbol = X if move_idx % 2 == 0 else O
        if symbol == nn_symbol:
            steps.append((list(board), move))
        board[move] = symbol
    # Last step first (backward replay, Lin 1992): the end result reaches
    # the first move within one game instead of one step per game.
    for t in reversed(range(len(steps))):
        board, move = steps[t]
        if t == len(steps) - 1:
            # The last step ends the game: its target is the reward itself.
            target = reward
        else:
            # Before the end no reward comes: the target is the best value
            # of the next position, discounted.  y = gamma * max_a' Q(s', a')
            target = settings.gamma * best_value(net, steps[t + 1][0])
        forward_pass(net, board_to_inputs(board))
        q_values = net.raw_logits
        # Only the action taken has a target; the others keep their value,
        # so their error is 0. For the loss (Q(s,a) - y)^2 / 2 the error on
        # the logits is q - target, and backprop's delta is exactly
        # outputs - target: the same step as the C's, on other outputs.
        targets = list(q_values)
        targets[move] = target
        # Update: w -= learning_rate * (Q(s,a) - y) * dQ(s,a)/dw.
        backprop(net, targets, settings.learning_rate, 1.0, outputs=q_values)


def play_q_game(net, rng, epsilon, nn_symbol=O, settings=DEFAULT_Q_SETTINGS):
    """Play one game against a random player, exploring, then learn from it.

    Takes the network, a random.Random (for the random player and for
    exploration), the exploration rate (0-1), the net's side and the
    QSettings. Returns (winner, move_history), as learn.play_random_game.
    """
    def explore(board):
        # Epsilon-greedy: sometimes a random move, so that every move gets
        # tried and a better one can be found (Sutton and Barto, 2.2).
        if rng.random() < epsilon:
            return get_random_move(board, rng)
        return get_computer_move(net, board)
    winner, move_history = play_against_random(explore, rng, nn_symbol)
    q_learn_from_game(net, move_history, winner, nn_symbol, settings)
    return winner, move_history


def train_q_learning(net, num_games, rng, nn_symbol=O, settings=DEFAULT_Q_SETTINGS,
                     report=None, report_every=REPORT_INTERVAL):
    """Train for `num_games` episodes by Q-learning, exploring less and less,
    then taking smaller steps (epsilon_at, learning_rate_at).

    Takes and returns what learn.train_against_random does, and calls
    `report` the same way; `settings` is a QSettings.
    """
    counts = collections.Counter()
    for game in range(num_games):
        step = settings._replace(
            learning_rate=learning_rate_at(game, num_games, settings.learning_rate))
        winner, _ = play_q_game(net, rng, epsilon_at(game, num_games, settings.epsilon),
                                nn_symbol, step)
        counts[winner] += 1
        if report is not None and (game + 1) % report_every == 0:
            if report(net, game + 1, {s: counts[s] for s in (X, O, TIE)}):
                return game + 1
            counts.clear()
    return num_games
