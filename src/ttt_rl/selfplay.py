"""Self-play: one network plays both sides and learns from every move.

The idea in one sentence: the net is its own opponent, so it always
meets a player as strong as itself, one that gets stronger as it learns;
a random player stops teaching once it is beaten. This is how TD-Gammon
learned backgammon (Tesauro, 1995; Sutton and Barto, 2nd ed., section
16.1) and AlphaGo Zero learned Go (16.6).

The rule is Q-learning (qlearn.py) for a net that plays both sides, in
negamax form. Q(s, a) is the value of move a for the player to move in s:
the 18 inputs say who that is (game.to_move), so one 18-H-9 net holds both
players' values. The target of a move that ends the game is the reward
for its mover: +1 for a win, 0 for a tie (the move that ends a game
cannot lose it). Before the end, the opponent moves next, from s', and
what is worth v to the opponent is worth -v to the mover, so
    y = -gamma * max_a' Q(s', a')
This is why the C's rewards (win 1, tie 0.3, loss -2) do not serve here:
they are not zero-sum (X's win is +1 for X but -2 for O, a tie +0.3 for
both), so minus the opponent's value is not the mover's value.

No C counterpart.
"""

from .game import BOARD_CELLS, BOTH, O, TIE, X, init_game, is_winning_move
from .qlearn import (DEFAULT_Q_SETTINGS, best_value, exploration_at, explore_move,
                     learning_rate_at, q_update)

SELF_REWARD_WIN = 1.0   # zero-sum rewards for the mover: a loss is -1, for
SELF_REWARD_TIE = 0.0   # the opponent, through the negation in the targets


def self_play_game(net, rng, exploration, settings=DEFAULT_Q_SETTINGS):
    """Play one game, the net on both sides, each move by
    qlearn.explore_move (exploration: epsilon or temperature, as
    settings.explore says). Returns (winner, move_history): X, O or TIE,
    and the cells played."""
    board, move_history = init_game(), []
    for move_idx in range(BOARD_CELLS):
        symbol = X if move_idx % 2 == 0 else O
        move = explore_move(net, board, rng, exploration, settings.explore)
        board[move] = symbol
        move_history.append(move)
        if is_winning_move(board, move):
            return symbol, move_history
    return TIE, move_history


def self_learn_from_game(net, move_history, winner, settings=DEFAULT_Q_SETTINGS):
    """Update the network from one game it played against itself.

    Takes the network, the game's moves (cells 0-8, X first), the winner
    (X, O or TIE) and the QSettings (learning_rate and gamma; its rewards
    are not used: see the module's docstring). Every move, X's and O's,
    is one Q-learning step. Returns nothing.
    """
    # The board before each move, and after the last one.
    boards, board = [], init_game()
    for move_idx, move in enumerate(move_history):
        boards.append(list(board))
        board[move] = X if move_idx % 2 == 0 else O
    boards.append(board)
    last = len(move_history) - 1
    # Last move first (backward replay, as in qlearn.q_learn_from_game).
    for t in reversed(range(len(move_history))):
        if t == last:
            # The move that ended the game: a win for its mover, or a tie.
            target = SELF_REWARD_TIE if winner == TIE else SELF_REWARD_WIN
        else:
            # Negamax: the opponent's best value from s', negated.
            target = -settings.gamma * best_value(net, boards[t + 1])
        q_update(net, boards[t], move_history[t], target, settings.learning_rate)


def train_self_play(net, num_games, rng, nn_symbol=BOTH, settings=DEFAULT_Q_SETTINGS,
                    report=None):
    """Train for `num_games` games of self-play, exploring less and less,
    then taking smaller steps (qlearn.exploration_at, learning_rate_at).

    Takes what qlearn.train_q_learning does; nn_symbol must be BOTH, since
    the net plays and learns both sides (ValueError otherwise). Reports as
    learn.train_against_random does, with side X: the net is both players,
    so a report counts X's wins, O's wins and ties. Returns the number of
    games played.
    """
    if nn_symbol != BOTH:
        raise ValueError("self-play learns both sides: nn_symbol must be BOTH")
    for game in range(num_games):
        step = settings._replace(
            learning_rate=learning_rate_at(game, num_games, settings.learning_rate))
        winner, move_history = self_play_game(
            net, rng, exploration_at(game, num_games, settings), step)
        self_learn_from_game(net, move_history, winner, step)
        if report is not None and report(net, game + 1, winner, X):
            return game + 1
    return num_games
