"""Policy iteration: the net learns from every position at once, with the rules as its model.

The idea in one sentence: freeze the net's favourite moves (its policy), compute exactly what
every position is worth under that policy, then teach the net, in every position, the moves
that would do best if the policy went on from there; repeat until no position has a better
move than the net's own.

What kind of method this is. It has the loop of policy iteration (Sutton and Barto, 2nd ed.,
section 4.3): evaluate the policy, improve it, until it is stable. The policy improvement
theorem (4.2), which makes each turn of that loop no worse, is for one agent against a fixed
environment; here one policy plays both sides, so changing X's moves changes the opponent O
meets, and a sweep need not improve both sides at once. What makes a stable policy perfect is
backward induction on the finite tree (the comment in train_policy_iteration says how).

The evaluation is exact: one backward sweep over the whole game tree, the 4,520 positions
reachable from the empty board, each valued from the position its policy move leads to, most
pieces first (backward induction). The rules are a known model of what every move leads to,
and of the random reply's odds for the tie-break below: dynamic programming (chapter 4), with a
distribution model (8.1). Nothing is played out and nothing is sampled, so this is not a Monte
Carlo method (chapter 5): the sweep reaches every position of the tree by construction, no
episode has to find it. The improved policy is not written into a table: the net learns it,
and a step for one position moves its answers in others, so this is approximate policy iteration
(Bertsekas and Tsitsiklis, "Neuro-Dynamic Programming", 1996). Learning the improved moves as a
classifier does, position by position, is Lagoudakis and Parr's "Reinforcement learning as
classification" (2003). One net plays both sides, as in selfplay.py: the 18 inputs say who is
to move, and rewards are for the mover (win 1, tie 0, loss -1), so what is worth v to one
player is worth -v to the other.

What is learned is a set of moves, not one: in each position, every best move (of equally good
ones, those with the best expected result, win 1, tie 0, loss -1, when the opponent then moves
at random to the end and the mover keeps to the frozen policy). The loss is -log P, where P is
the net's total probability over that set in the C's softmax over all 9 cells (the grid
ttt-play prints): the net may share P among those moves as it likes, and the taken cells'
targets are 0, as in the C's rule, so the move it plays also reads high in that grid.

The module reads in that order: the game tree and its positions; the values of perfect play
over it, by the same backward induction (minimax, the moves that keep it, and the most a
never-losing player wins against a random one), which lab/exact.py measures a policy
against; then the net's policy evaluated and improved, sweep after sweep.

No C counterpart: the C learns from the games it plays; this reads the rules as a model.
"""

import functools
import math

from .game import BOARD_CELLS, EMPTY, O, TIE, X, board_to_inputs, check_game_over, to_move
from .nn import backprop, forward_pass, get_computer_move

LEARNING_RATE = 0.03   # one step per position per sweep: 4,520 steps a sweep
REWARD_WIN = 1.0       # for the mover; a loss is -1, through the negation
REWARD_TIE = 0.0
TOLERANCE = 1e-9       # expectations this close are equal (rounding, not a difference)
START = EMPTY * BOARD_CELLS   # the empty board as a position string


@functools.cache
def game_tree():
    """Return {position: {cell: (after, reward)}} for every non-terminal position reachable from
    the empty board (4,520), generated from the rules, fewest pieces first. A position is a
    string of 9 cells ("X...O...."); `after` is the position after the mover plays `cell`, and
    reward is REWARD_WIN or REWARD_TIE for the mover if that move ends the game, else None.
    Built once, then shared (do not change it)."""
    tree, layer = {}, {START}
    # Breadth first, one move at a time: every position comes after all positions with fewer
    # pieces, so reading the tree backwards visits the positions after a move first.
    while layer:
        following = set()
        # Sorted: a set's order changes from run to run (string hashing is salted), and the
        # order of the positions is the order a seed shuffles.
        for position in sorted(layer):
            mover, moves = to_move(position), {}
            for cell in range(BOARD_CELLS):
                if position[cell] == EMPTY:
                    after = position[:cell] + mover + position[cell + 1:]
                    winner = check_game_over(after)
                    if winner is None:
                        following.add(after)
                    moves[cell] = (after, None if winner is None else
                                   REWARD_TIE if winner == TIE else REWARD_WIN)
            tree[position] = moves
        layer = following
    return tree


def positions():
    """Return the 4,520 non-terminal reachable positions (strings), fewest pieces first."""
    return list(game_tree())


@functools.cache
def reachable(side):
    """Return the positions (a frozenset) with `side` to move reachable under any play."""
    return frozenset(p for p in game_tree() if to_move(p) == side)


@functools.cache
def minimax(position):
    """Return the value of `position` for O under perfect play by both: 1, 0 or -1."""
    winner = check_game_over(position)
    if winner is not None:
        return {O: 1, TIE: 0, X: -1}[winner]
    values = [minimax(after) for after, _ in game_tree()[position].values()]
    return max(values) if to_move(position) == O else min(values)


def move_results(position):
    """Return {cell: "win", "draw" or "loss"}: each legal move's result for the player to move
    in `position` under perfect play from there on (minimax); {} if the game is over."""
    sign = 1 if to_move(position) == O else -1   # minimax is O's value
    return {cell: ("loss", "draw", "win")[1 + sign * minimax(after)]
            for cell, (after, _) in game_tree().get(position, {}).items()}


def correct_moves(position):
    """Return the cells that keep the minimax value of `position`."""
    return [cell for cell, (after, _) in game_tree().get(position, {}).items()
            if minimax(after) == minimax(position)]


@functools.cache
def best_safe_win_rate(position=START, side=O):
    """Return the best P(win) of a never-losing `side` against a random opponent from `position`
    (0.9164 as O, 0.9948 as X), by expectimax (Russell and Norvig, AIMA, 5.5) with a loss worth
    -1e6: the random opponent finds any forced win with probability at least 1/(9*7*5*3), so
    no policy that can lose is best."""
    winner = check_game_over(position)
    if winner is not None:
        return 1.0 if winner == side else 0.0 if winner == TIE else -1e6
    values = [best_safe_win_rate(after, side) for after, _ in game_tree()[position].values()]
    return max(values) if to_move(position) == side else sum(values) / len(values)


def greedy_policy(net):
    """Return {position: cell}: the net's move in every position, frozen for one sweep (the
    legal cell with the highest probability, lowest on ties: nn.get_computer_move)."""
    return {position: get_computer_move(net, position) for position in game_tree()}


def evaluate(policy):
    """Evaluate `policy` ({position: cell}) exactly. Returns two dicts, position -> float, both
    the result for the player to move in that position (1 a win, 0 a tie, -1 a loss):
      results         R(s): the policy plays both sides from s;
      random_results  the player to move in s moves at random (every legal cell equally
                      likely) and the other plays the policy: an exact expectation.
    No game is played out and nothing is sampled: one backward sweep over the tree computes
    both from the values of the positions after each move (dynamic programming)."""
    tree, results, random_results = game_tree(), {}, {}
    policy_vs_random = {}   # the same, the mover playing the policy and the other at random
    # Backward induction: most pieces first, so the values of the positions after a move are
    # known when they are needed, and each position is valued once, however many lead to it.
    for position in reversed(list(tree)):
        # Negamax: what is worth v to the next mover is worth -v to this one.
        after, reward = tree[position][policy[position]]
        results[position] = reward if reward is not None else -results[after]
        policy_vs_random[position] = reward if reward is not None else -random_results[after]
        outcomes = [reward if reward is not None else -policy_vs_random[after]
                    for after, reward in tree[position].values()]
        random_results[position] = sum(outcomes) / len(outcomes)
    return results, random_results


def improve(results, random_results):
    """Return {position: the best moves, a tuple of cells} from evaluate's two dicts.

    G(s, a) = the reward if a ends the game, else -R(s after a): the result of playing a, then
    the policy on both sides. best(s) is the moves with the highest G; of those, the moves with
    the highest expected result when the opponent then moves at random and the mover keeps to
    the policy, so that the player also takes the most from a weak opponent. Both are exact
    expectations, which the rules allow here: they are a distribution model of the game, every
    move's result and the random reply's odds known (Sutton and Barto, 8.1)."""
    best = {}
    for position, moves in game_tree().items():
        value = {cell: reward if reward is not None else -results[after]
                 for cell, (after, reward) in moves.items()}
        top = max(value.values())
        # The tie-break, among the moves worth `top`: the expected result if the opponent then
        # moves at random to the end and the mover keeps to the policy (evaluate's random_results).
        weak = {cell: reward if reward is not None else -random_results[after]
                for cell, (after, reward) in moves.items() if value[cell] == top}
        top_weak = max(weak.values())
        best[position] = tuple(c for c, v in weak.items() if v >= top_weak - TOLERANCE)
    return best


def set_loss_step(net, board, best, learning_rate=LEARNING_RATE):
    """One gradient step on -log P for `board` (9 cells: a string or a list), P being the net's
    probability of playing one of the cells in `best` (a non-empty collection of empty cells)
    in its softmax over all 9 cells, the C's (net.outputs, the grid ttt-play prints). Returns
    -log P before the step.

    With z the logits (9) and p = softmax(z), P = sum of p_a over best:
        d(-log P)/dz_a = p_a - t_a,   t_a = p_a / P on best, 0 on every other cell
    The target t is the net's own probabilities renormalised over best: the step moves
    probability onto the set without choosing among its moves, and off the taken cells too
    (their target is 0, as in the C's rule), so the move played reads high in the C's grid."""
    forward_pass(net, board_to_inputs(board))
    p = net.outputs   # the C's softmax, over all 9 cells
    total = sum(p[c] for c in best)   # P
    t = [p[c] / total if c in best else 0.0 for c in range(BOARD_CELLS)]
    # backprop's output delta is net.outputs - targets = p - t: the gradient above.
    backprop(net, t, learning_rate, 1.0)
    return -math.log(total)


def shuffled(items, rng):
    """Return a new list of `items` in random order (Fisher-Yates), drawing with int(random() *
    n) as game.get_random_move does, so a seed gives the same order on every Python."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def train_policy_iteration(net, max_sweeps, rng, learning_rate=LEARNING_RATE, report=None):
    """Train `net` (in place) by policy iteration, for at most `max_sweeps` sweeps.

    Takes the network, the number of sweeps, a random.Random (for the order of the positions)
    and the learning rate. A sweep freezes the net's policy, evaluates and improves it; then,
    if `report` is given, calls report(net, sweep, unstable): sweep counts from 1, unstable is
    the number of positions whose move is not among the best. If report returns True, or the
    policy is stable (unstable is 0), training stops there, before any step. Otherwise every
    position, in a new random order, gets one set_loss_step towards its best moves.
    Returns (sweeps, unstable) of the last sweep evaluated: unstable 0 means the policy is
    stable, and then it keeps the minimax value in every position (see below); (0, None) if
    max_sweeps is 0.
    """
    sweep, unstable = 0, None
    for sweep in range(1, max_sweeps + 1):
        policy = greedy_policy(net)
        best = improve(*evaluate(policy))
        unstable = sum(policy[position] not in best[position] for position in best)
        # Why stable means perfect, with no minimax computed: where every move ends the game,
        # G is the true result of each move, so pi(s) in best(s) is a perfect move and R(s) is
        # the minimax value. Where every move ends the game or leads to such positions, G is
        # then exact too, and so on back to the empty board (backward induction).
        if (report is not None and report(net, sweep, unstable)) or unstable == 0:
            break
        # Evaluation and improvement read a frozen policy; the steps change the net, so each
        # one starts with a fresh forward pass (set_loss_step's), never a stale one.
        #
        # LEARNING OPPORTUNITY: on a table, policy iteration writes the better move into each
        # position and is done in a few sweeps (5 from "the lowest empty cell" everywhere: the
        # tests do it). A net cannot change one position alone: a step for one position moves
        # its answers in the others that share its inputs and hidden units (generalisation),
        # and can undo a move learned earlier in the sweep, so it takes more sweeps (23 to 40
        # on the 60 seeds bench/complete.py measured). This is approximate policy iteration
        # (Bertsekas and Tsitsiklis, 1996); AlphaGo Zero's loop, a search that improves the
        # net's moves and a net that learns them, is another (Sutton and Barto, 16.6.2).
        for position in shuffled(best, rng):
            set_loss_step(net, position, best[position], learning_rate)
    return sweep, unstable
