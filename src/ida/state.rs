//! A board under search: its tiles, its views' ranks and estimates, and
//! the moves played and undone.

use crate::board::Board;
use crate::ida::{MAX_GROUPS, MAX_VIEWS, ROW, Searcher, View};
use crate::pdb::Values;
use crate::shape::MAX_CELLS;

/// The board being searched, in the user's frame, and how each view sees it.
#[derive(Clone)]
pub(super) struct State {
    pub(super) cells: [u8; MAX_CELLS],
    pub(super) blank: usize,
    pub(super) sights: [Sight; MAX_VIEWS],
    pub(super) count: usize,
}

/// One view's group that a move changes: its Manhattan distance and value
/// after the move, or before it, to undo it.
#[derive(Clone, Copy, Default)]
pub(super) struct Undo {
    pub(super) group: u8,
    pub(super) manhattan: u8,
    pub(super) value: u8,
    /// The spread index, in a search with the entries spread.
    pub(super) index: u32,
    /// The rank, in a search without.
    pub(super) rank: u32,
    /// The cells of the blank walled in, for databases that know them.
    pub(super) walled: u32,
    /// The view's estimate.
    pub(super) sum: u32,
}

/// A child as [`State::child`] sees it before the move: its estimate and
/// what changes in each view.
pub(super) struct Child<const V: usize> {
    pub(super) estimate: u32,
    pub(super) changes: [Undo; V],
}

impl State {
    pub(super) fn new<D: AsRef<[u8]> + Sync>(
        solver: &Searcher<D>,
        views: &[View],
        board: &Board,
    ) -> State {
        let mut state = State {
            cells: [0; MAX_CELLS],
            blank: board.blank(),
            sights: [Sight {
                on: [0; MAX_CELLS],
                rank: [0; MAX_GROUPS],
                index: [0; MAX_GROUPS],
                manhattan: [0; MAX_GROUPS],
                value: [0; MAX_GROUPS],
                walled: [0; MAX_GROUPS],
                walls_at: [0; ROW],
                entries: 0,
                sum: 0,
            }; MAX_VIEWS],
            count: views.len(),
        };
        state.cells[..board.cells().len()].copy_from_slice(board.cells());
        for (view, sight) in views.iter().zip(&mut state.sights) {
            let mut pos = [0; MAX_CELLS];
            for (cell, &tile) in board.cells().iter().enumerate() {
                let tile = view.tile[usize::from(tile)];
                let cell = view.cell[cell];
                pos[usize::from(tile)] = cell;
                sight.on[usize::from(cell)] = tile;
                if tile != 0 {
                    let g = usize::from(solver.group_of[usize::from(tile)]);
                    sight.manhattan[g] += solver.distance[usize::from(tile)][usize::from(cell)];
                    sight.index[g] += u32::from(cell) << solver.shift[usize::from(tile)];
                }
            }
            for g in 0..solver.table.len() {
                let rank = solver.rank(g, &pos);
                sight.rank[g] = rank as u32;
                let values = solver.table.values(g);
                let value = values.get(rank, u32::from(sight.manhattan[g]));
                sight.value[g] = value.min(255) as u8;
                sight.entries += u32::from(sight.value[g]);
                if solver.walls {
                    sight.wall(g, values.walls(rank).1);
                }
            }
            sight.sum = sight.entries
                + 2 * u32::from(sight.walls_at[usize::from(view.cell[board.blank()])]);
        }
        state
    }

    /// Whether the board is `goal`.
    #[inline(always)]
    pub(super) fn is(&self, goal: &Board) -> bool {
        self.cells[..goal.cells().len()] == *goal.cells()
    }

    #[inline(always)]
    pub(super) fn estimate(&self) -> u32 {
        self.sights[..self.count]
            .iter()
            .map(|sight| sight.sum)
            .max()
            .unwrap_or(0)
    }

    /// The rank each view looks up after the blank moves to `to`.
    #[inline(always)]
    pub(super) fn ranks<D: AsRef<[u8]> + Sync, const V: usize>(
        &self,
        solver: &Searcher<D>,
        views: &[View; V],
        to: usize,
    ) -> [u32; V] {
        let tile = usize::from(self.cells[to]);
        let mut ranks = [0; V];
        for ((view, sight), rank) in views.iter().zip(&self.sights).zip(&mut ranks) {
            let tile = usize::from(view.tile[tile]);
            let g = usize::from(solver.group_of[tile]);
            let old = usize::from(view.cell[to]);
            let new = usize::from(view.cell[self.blank]);
            *rank = solver.rank_after(sight.rank[g], &sight.on, tile, old, new);
        }
        ranks
    }

    /// How each view sees the board after the blank moves to `to`, without
    /// moving it: only the moved tile's group changes, to the entry of
    /// `ranks[view]` when `AHEAD`, else of the rank found here.
    #[inline(always)]
    pub(super) fn child<
        const AHEAD: bool,
        const SPREAD: bool,
        const BYTES: bool,
        const WALLS: bool,
        const V: usize,
    >(
        &self,
        solver: &Searcher<impl AsRef<[u8]> + Sync>,
        spread: &[Vec<u8>],
        values: &[Values<'_>; ROW],
        views: &[View; V],
        to: usize,
        ranks: &[u32; V],
    ) -> Child<V> {
        let tile = usize::from(self.cells[to]);
        let mut child = Child {
            estimate: 0,
            changes: [Undo::default(); V],
        };
        for (((view, sight), change), &rank) in views
            .iter()
            .zip(&self.sights)
            .zip(&mut child.changes)
            .zip(ranks)
        {
            let tile = usize::from(view.tile[tile]);
            let old = usize::from(view.cell[to]);
            let new = view.cell[self.blank];
            let g = usize::from(solver.group_of[tile]);
            // The group's Manhattan distance, which only entries in nibbles
            // read: bytes are the entries themselves.
            let moved = || {
                let distances = &solver.distance[tile];
                sight.manhattan[g] + distances[usize::from(new)] - distances[old]
            };
            let mut manhattan = sight.manhattan[g];
            let value = if SPREAD {
                manhattan = moved();
                let index = sight.spread_index(g, solver.shift[tile], old, new);
                change.index = index;
                let spread = &spread[g];
                let i = index as usize;
                u32::from(manhattan) + 2 * u32::from((spread[i / 2] >> (4 * (i % 2))) & 15)
            } else {
                let rank = match AHEAD {
                    true => rank,
                    false => {
                        solver.rank_after(sight.rank[g], &sight.on, tile, old, usize::from(new))
                    }
                };
                change.rank = rank;
                match values[g & (ROW - 1)] {
                    values if WALLS => {
                        let (entry, walled) = values.walls(rank as usize);
                        change.walled = walled;
                        entry
                    }
                    values if BYTES => u32::from(values.raw()[rank as usize]),
                    Values::Bytes(bytes) => u32::from(bytes[rank as usize]),
                    nibbles => {
                        manhattan = moved();
                        nibbles.get(rank as usize, u32::from(manhattan))
                    }
                }
            };
            let entries = sight.entries + value - u32::from(sight.value[g]);
            let estimate = match WALLS {
                // The blank moves to the tile's cell: every group's walls
                // are looked at there, the moved group's after the move.
                true => {
                    let blank = view.cell[to];
                    let walls = u32::from(sight.walls_at[usize::from(blank) % ROW])
                        - (sight.walled[g] >> blank & 1)
                        + (change.walled >> blank & 1);
                    entries + 2 * walls
                }
                false => entries,
            };
            child.estimate = child.estimate.max(estimate);
            *change = Undo {
                group: g as u8,
                manhattan,
                value: value.min(255) as u8,
                index: change.index,
                rank: change.rank,
                walled: change.walled,
                sum: estimate,
            };
        }
        child
    }

    /// Asks for the spread entries each view reads after the blank moves to
    /// `to` to be fetched into the cache.
    #[inline(always)]
    pub(super) fn prefetch_spread<D: AsRef<[u8]> + Sync, const V: usize>(
        &self,
        solver: &Searcher<D>,
        spread: &[Vec<u8>],
        views: &[View; V],
        to: usize,
    ) {
        let tile = usize::from(self.cells[to]);
        for (view, sight) in views.iter().zip(&self.sights) {
            let tile = usize::from(view.tile[tile]);
            let g = usize::from(solver.group_of[tile]);
            let old = usize::from(view.cell[to]);
            let index = sight.spread_index(g, solver.shift[tile], old, view.cell[self.blank]);
            crate::mem::prefetch(&spread[g], index as usize / 2);
        }
    }

    /// Moves the blank to `to`, where [`State::child`] saw it as `child`;
    /// returns what undoes it.
    #[inline(always)]
    pub(super) fn play<const V: usize, const SPREAD: bool, const WALLS: bool>(
        &mut self,
        views: &[View; V],
        to: usize,
        child: &Child<V>,
    ) -> [Undo; V] {
        let from = self.blank;
        let tile = self.cells[to];
        self.cells.swap(from, to);
        self.blank = to;
        let mut undo = [Undo::default(); V];
        for (((view, sight), undo), change) in views
            .iter()
            .zip(&mut self.sights)
            .zip(&mut undo)
            .zip(&child.changes)
        {
            let moved = view.tile[usize::from(tile)];
            let g = usize::from(change.group);
            *undo = Undo {
                group: change.group,
                manhattan: sight.manhattan[g],
                value: sight.value[g],
                index: sight.index[g],
                rank: sight.rank[g],
                walled: sight.walled[g],
                sum: sight.sum,
            };
            sight.set::<SPREAD, WALLS>(change, moved, view.cell[from], view.cell[to]);
        }
        undo
    }

    /// Takes back the move that brought the blank from `from`.
    #[inline(always)]
    pub(super) fn unplay<const V: usize, const SPREAD: bool, const WALLS: bool>(
        &mut self,
        views: &[View; V],
        from: usize,
        undo: &[Undo; V],
    ) {
        let to = self.blank;
        let tile = self.cells[from];
        self.cells.swap(from, to);
        self.blank = from;
        for ((view, sight), undo) in views.iter().zip(&mut self.sights).zip(undo) {
            let moved = view.tile[usize::from(tile)];
            sight.set::<SPREAD, WALLS>(undo, moved, view.cell[to], view.cell[from]);
        }
    }
}

/// The board as one view sees it: the tile on each cell, and each group's
/// rank, Manhattan distance and value.
#[derive(Clone, Copy)]
pub(super) struct Sight {
    /// The tile on each cell (0 on the blank's).
    pub(super) on: [u8; MAX_CELLS],
    /// Each group's rank.
    pub(super) rank: [u32; MAX_GROUPS],
    pub(super) index: [u32; MAX_GROUPS],
    pub(super) manhattan: [u8; MAX_GROUPS],
    /// Each group's entry.
    pub(super) value: [u8; MAX_GROUPS],
    /// Each group's cells of the blank walled in, for databases that know
    /// them: two moves more each.
    pub(super) walled: [u32; MAX_GROUPS],
    /// How many groups wall in a blank on each cell.
    pub(super) walls_at: [u8; ROW],
    /// The sum of the entries.
    pub(super) entries: u32,
    /// The estimate: the entries, and two for each group that walls the
    /// blank in.
    pub(super) sum: u32,
}

impl Sight {
    /// Sets the cells group `g` walls in, and the count of groups that
    /// wall in each cell: most placements wall none in, before a move and
    /// after it.
    #[inline(always)]
    pub(super) fn wall(&mut self, g: usize, walled: u32) {
        let old = self.walled[g];
        if old == walled {
            return;
        }
        self.walled[g] = walled;
        let (mut gone, mut new) = (old & !walled, walled & !old);
        while gone != 0 {
            self.walls_at[gone.trailing_zeros() as usize % ROW] -= 1;
            gone &= gone - 1;
        }
        while new != 0 {
            self.walls_at[new.trailing_zeros() as usize % ROW] += 1;
            new &= new - 1;
        }
    }

    /// Group `g`'s spread index once its tile whose cell is at `shift` in
    /// it moves from cell `old` to `new`.
    #[inline(always)]
    pub(super) fn spread_index(&self, g: usize, shift: u8, old: usize, new: u8) -> u32 {
        self.index[g] - ((old as u32) << shift) + (u32::from(new) << shift)
    }

    /// Sets group `g` to `group`'s Manhattan distance, value, walled cells
    /// (if `WALLS`) and the index its search reads (the spread index if
    /// `SPREAD`, else the rank, with `moved` now on cell `tile` and the
    /// blank on `blank`), and the view's estimate to `group`'s. Both a move
    /// and its undo.
    #[inline(always)]
    pub(super) fn set<const SPREAD: bool, const WALLS: bool>(
        &mut self,
        group: &Undo,
        moved: u8,
        tile: u8,
        blank: u8,
    ) {
        let g = usize::from(group.group);
        self.entries = self.entries + u32::from(group.value) - u32::from(self.value[g]);
        self.value[g] = group.value;
        self.manhattan[g] = group.manhattan;
        self.sum = group.sum;
        if WALLS {
            self.wall(g, group.walled);
        }
        // Each search keeps what its lookups read; the other stays as it was
        // when the search started, which is right again once it has taken
        // back its moves.
        if SPREAD {
            self.index[g] = group.index;
        } else {
            self.on[usize::from(tile)] = moved;
            self.on[usize::from(blank)] = 0;
            self.rank[g] = group.rank;
        }
    }
}
