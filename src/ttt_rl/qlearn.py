"""Q-learning: a second learning rule, with the same network and file.

The idea in one sentence: read the network's 9 logits as action values,
Q(s, a) = the return the net expects after playing cell a in position s, and
move each value towards what the next position shows it is worth.

learn.py (the C's rule) waits for the end of a game and pushes every move
towards or away from the move played; it always plays its favourite move,
so a move it never tries is never found to be better. Here the net
explores (epsilon-greedy or softmax), and each value learns from the next
one (bootstrapping), so a good result travels back move by move. This is
Watkins's Q-learning (1989; Sutton and Barto, 2nd ed., section 6.5) with a
network for the table, the method of DQN (Mnih et al., "Human-level control
through deep reinforcement learning", Nature, 2015) without its replay
memory and target network. No C counterpart: ttt.c's comment says TD
learning "can't really" be done here; this is one way it can.

Softmax keeps the order of the logits, so a Q-trained file plays unchanged
in ttt-play and in the C's play: the same file, the same player.
"""

import collections

from .game import BOARD_CELLS, EMPTY, O, X, board_to_inputs, get_random_move, init_game
from .learn import DEFAULT_SETTINGS, game_reward, play_against_random, side_of_game
from .nn import backprop, forward_pass, get_computer_move, softmax

Q_LEARNING_RATE = 0.01   # smaller than the C's 0.1: each step chases a moving target
EPSILON = 0.3            # chance of a random move at the start of training...
EPSILON_DECAY = 0.8      # ...falling linearly to 0 over this share of the games
TEMPERATURE = 1.0        # the same, for softmax exploration (explore="softmax")
GAMMA = 1.0              # discount: 1 values a late win as much as a quick one
FINAL_RATE_SHARE = 0.1   # the learning rate falls to this share of itself by the end
# |Q(s,a) - y| is clipped to this, as DQN clips it to 1 (Mnih et al. 2015:
# the Huber loss), so a net with huge values learns back instead of
# overflowing. Rewards in [-2, 1] make 1 bind; 10 never binds from the C's
# start: the largest |Q(s,a) - y| in train_q_learning(init_neural_network(
# rng), 200000, rng, side), rng = random.Random(seed), seeds 1-20, side X
# and O, was 6.37 (PyPy 7.3.11, 2-core VM).
TD_ERROR_BOUND = 10.0
EPSILON_GREEDY, SOFTMAX = "epsilon", "softmax"   # the two ways to explore

# The C's settings, exploration and discount; then how to explore (defaulted).
QSettings = collections.namedtuple(
    "QSettings", DEFAULT_SETTINGS._fields + ("epsilon", "gamma", "explore", "temperature"),
    defaults=(EPSILON_GREEDY, TEMPERATURE))
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


def q_update(net, board, move, target, learning_rate):
    """One step of Q(board, move) towards `target` (a float); the other 8
    values keep their targets, their own values. Takes the network, a
    board, a cell 0-8 and the learning rate. Returns nothing."""
    forward_pass(net, board_to_inputs(board))
    q_values = net.raw_logits
    q = q_values[move]
    # For the loss (Q(s,a) - y)^2 / 2 the error on the logits is q - y, and
    # backprop's delta is exactly outputs - targets: the C's step on other
    # outputs. Clipping the error (TD_ERROR_BOUND) bounds every step.
    targets = list(q_values)
    targets[move] = min(max(target, q - TD_ERROR_BOUND), q + TD_ERROR_BOUND)
    # Update: w -= learning_rate * (Q(s,a) - y) * dQ(s,a)/dw.
    backprop(net, targets, learning_rate, 1.0, outputs=q_values)


def q_learn_from_game(net, move_history, winner, nn_symbol=O, settings=DEFAULT_Q_SETTINGS):
    """Update the network from one finished game by Q-learning.

    Takes the network, the game's moves (cells 0-8, X first), the winner
    (X, O or TIE), the net's side (X or O) and the QSettings. Each of the
    net's moves is one step: position s, action a, and what followed: the
    position s' at its next move, or the end of the game. Returns nothing.
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
        q_update(net, board, move, target, settings.learning_rate)


def softmax_move(net, board, rng, temperature):
    """Return a cell drawn from the softmax of the net's values over the
    empty cells of `board`, at `temperature` (> 0; at 0, the best move)."""
    if temperature <= 0.0:
        return get_computer_move(net, board)
    forward_pass(net, board_to_inputs(board))
    cells = [c for c in range(BOARD_CELLS) if board[c] == EMPTY]
    left = rng.random()
    for cell, p in zip(cells, softmax([net.raw_logits[c] / temperature for c in cells])):
        left -= p
        if left < 0.0:
            return cell
    return cells[-1]   # rounding can leave the sum of p a hair under 1


def explore_move(net, board, rng, exploration, explore=EPSILON_GREEDY):
    """Return the net's move on `board` while it learns: with EPSILON_GREEDY
    a random cell with probability `exploration` (0-1), else the best;
    with SOFTMAX a draw at temperature `exploration` (softmax_move)."""
    if explore == SOFTMAX:
        # Soft-max action selection (Sutton and Barto, 2.8 and 13.1): a known
        # loser is seldom replayed, while moves of near-equal value share.
        return softmax_move(net, board, rng, exploration)
    # Epsilon-greedy: sometimes a random move, so that every move gets
    # tried and a better one can be found (Sutton and Barto, 2.2).
    if rng.random() < exploration:
        return get_random_move(board, rng)
    return get_computer_move(net, board)


def play_q_game(net, rng, epsilon, nn_symbol=O, settings=DEFAULT_Q_SETTINGS,
                opponent=get_random_move):
    """Play one game against an opponent, exploring, then learn from it.

    Takes the network, a random.Random (for the opponent and exploration),
    the exploration (epsilon, or the temperature: explore_move), the net's
    side (X or O), the QSettings and opponent(board, rng) -> cell. Returns
    (winner, move_history), as learn.play_random_game does.
    """
    def explore(board):
        return explore_move(net, board, rng, epsilon, settings.explore)
    winner, move_history = play_against_random(explore, rng, nn_symbol, opponent)
    q_learn_from_game(net, move_history, winner, nn_symbol, settings)
    return winner, move_history


def exploration_at(game, num_games, settings):
    """Return the exploration of game `game` (0-based) of `num_games`: the
    epsilon of epsilon_at, or with SOFTMAX the temperature, falling the same
    way from settings.temperature to 0. The Q-values lie in [-2, 1]: at 1.0
    moves a few tenths apart are drawn nearly alike, one 3 worse 20 times
    less often; near 0 the best move is played (Sutton and Barto, 2.8). Why
    1.0: docs/measurements.md, "Both sides"."""
    start = settings.temperature if settings.explore == SOFTMAX else settings.epsilon
    return epsilon_at(game, num_games, start)


def train_q_learning(net, num_games, rng, nn_symbol=O, settings=DEFAULT_Q_SETTINGS,
                     report=None, opponent=get_random_move):
    """Train for `num_games` episodes by Q-learning, exploring less and less,
    then taking smaller steps (exploration_at, learning_rate_at). Takes,
    returns and reports what learn.train_against_random does (side X, O or
    BOTH; an opponent(board, rng) -> cell); `settings` is a QSettings."""
    for game in range(num_games):
        side = side_of_game(nn_symbol, game)
        step = settings._replace(
            learning_rate=learning_rate_at(game, num_games, settings.learning_rate))
        exploration = exploration_at(game, num_games, settings)
        winner, _ = play_q_game(net, rng, exploration, side, step, opponent)
        if report is not None and report(net, game + 1, winner, side):
            return game + 1
    return num_games
