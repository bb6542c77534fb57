//! The hall's side of HER's brains: a game's or a match's brains made canonical, checked
//! against their owner's rights and quota and loaded, and the holds that keep a brain's writers
//! apart (see `crate::brain_uses`).

use std::net::IpAddr;

use parlor_shared::hexapawn::{
    Brain, BrainOwner, BrainRef, HER_SEAT, HexSetup, MatchSetup, PERSON_SEAT,
};
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{AiKind, ErrorCode, SeatSpec};

use super::{Asker, Hall, Refusal, bad_request, internal};
use crate::brain_quota::BrainMaker;
use crate::brain_uses::{BrainClaim, BrainWrite};
use crate::her_match::{MatchInit, spawn_match};
use crate::her_seat::HerSeat;
use crate::room::RoomHandle;
use crate::store::MatchProgress;

impl Hall {
    /// HER's seat for a game against a person: seat 0 the person, seat 1 HER, with the stored
    /// brain of the game's name (or a new one). The setup's brain name is made canonical (its
    /// owner written out, `creator`'s for a plain name); the game teaches the brain when it
    /// ends only if it is `creator`'s. A new brain counts against `creator` and `address`.
    /// A refusal names the brain as `creator`'s lists do (`as_seen_by`).
    pub(super) async fn her_seat(
        &self,
        setup: &mut HexSetup,
        seats: &[SeatSpec],
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Result<HerSeat, Refusal> {
        let seat = self
            .her_seat_by_id(setup, seats, seed, creator, address)
            .await;
        // The setup's name is canonical once it read as a brain's name.
        seat.map_err(|refused| as_seen_by(refused, std::slice::from_ref(&setup.brain), creator.id))
    }

    /// [`Hall::her_seat`], its refusals naming the brain by the id it is stored under.
    async fn her_seat_by_id(
        &self,
        setup: &mut HexSetup,
        seats: &[SeatSpec],
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Result<HerSeat, Refusal> {
        let maker = BrainMaker {
            player: creator.id,
            source: address,
        };
        let her_seat_ok = matches!(
            seats[HER_SEAT as usize],
            SeatSpec::Ai {
                kind: AiKind::Standard,
                ..
            }
        );
        if seats[PERSON_SEAT as usize] != SeatSpec::Human || !her_seat_ok {
            return Err(bad_request(
                "a game against HER has a Human seat 0 and HER (AI Standard) in seat 1",
            ));
        }
        let brain_ref = BrainRef::canonical(&setup.brain, Some(creator.id)).map_err(bad_request)?;
        setup.brain = brain_ref.text();
        let teaches = brain_ref.writable_by(creator.id);
        // Noted before the brain is read, so no match can claim it in between.
        let mut in_game = if teaches {
            self.brain_uses.enter_game(&setup.brain)?
        } else {
            self.brain_uses.enter_read_only_game(&setup.brain)
        };
        let brain = self.load_brain(&setup.brain).await?;
        if brain.is_none() && !teaches {
            return Err((
                ErrorCode::NoSuchBrain,
                format!("no brain named {:?}", setup.brain),
            ));
        }
        let brain = match brain {
            Some(brain) => Some(brain),
            None => {
                self.admit_new_brain(maker, &setup.brain).await?;
                (self.make_brain(&setup.brain, setup.dims, setup.mirrors)).await?
            }
        };
        let brain = fitting_brain(brain, setup.dims, setup.mirrors, &setup.brain)?;
        in_game.hold_boxes(brain.boxes())?;
        let mut her = HerSeat::new(brain, setup.mode, seed).teaching(teaches);
        her.hold_brain(in_game);
        Ok(her)
    }

    /// An auto match `creator` asked for from `address`: both brains must be theirs (named plainly, or by
    /// their own id), since a match trains them.
    pub(super) async fn open_match(
        &self,
        mut setup: MatchSetup,
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Result<RoomHandle, Refusal> {
        let maker = BrainMaker {
            player: creator.id,
            source: address,
        };
        for name in &mut setup.brains {
            let brain = BrainRef::canonical(name, Some(creator.id)).map_err(bad_request)?;
            if !brain.writable_by(creator.id) {
                return Err((
                    ErrorCode::NotYours,
                    format!(
                        "an auto match trains its brains, and brain {name:?} is not yours: \
                         export it and import it under a name of your own to train a copy"
                    ),
                ));
            }
            *name = brain.text();
        }
        if setup.brains[0] == setup.brains[1] {
            return Err(bad_request("the two HERs need two different brains"));
        }
        let names = setup.brains.clone();
        let opened = self.open_match_by_id(setup, seed, creator, maker).await;
        opened.map_err(|refused| as_seen_by(refused, &names, creator.id))
    }

    /// The auto match of `setup`, its brains' names canonical and `creator`'s; its refusals
    /// name the brains by the ids they are stored under.
    async fn open_match_by_id(
        &self,
        setup: MatchSetup,
        seed: u64,
        creator: &Player,
        maker: BrainMaker,
    ) -> Result<RoomHandle, Refusal> {
        let address = maker.source;
        let claim = self.claim_brains(&setup.brains)?;
        // Both brains are checked before a new one is made: a refused match makes nothing.
        let mut stored = Vec::with_capacity(2);
        for name in &setup.brains {
            let brain = self.load_brain(name).await?;
            match &brain {
                Some(brain) => check_fits(brain, setup.dims, setup.mirrors, name)?,
                None => self.admit_new_brain(maker, name).await?,
            }
            stored.push(brain);
        }
        let mut brains = Vec::with_capacity(2);
        for (name, brain) in setup.brains.iter().zip(stored) {
            let brain = match brain {
                Some(brain) => Some(brain),
                None => self.make_brain(name, setup.dims, setup.mirrors).await?,
            };
            brains.push(fitting_brain(brain, setup.dims, setup.mirrors, name)?);
        }
        let brains: [Brain; 2] = brains.try_into().map_err(|_| internal("two brains"))?;
        let id = self.new_room_id().await?;
        self.store
            .insert_match(id, &setup, seed, creator, address)
            .done()
            .await
            .map_err(internal)?;
        let store = self.store.clone();
        spawn_match(MatchInit {
            id,
            creator: Some(creator.clone()),
            setup,
            brains,
            seed,
            store,
            claim,
            progress: MatchProgress::default(),
            lifetimes: self.lifetimes,
            unfollowed_since: Some(crate::store::unix_now()),
        })
        .map_err(internal)
    }

    /// Admits a new brain `canonical` that `maker` makes, or refuses it over their quotas (it
    /// starts empty) or for a name no new brain may have (a stored brain keeps its name).
    async fn admit_new_brain(&self, maker: BrainMaker, canonical: &str) -> Result<(), Refusal> {
        BrainRef::parse_new(canonical).map_err(bad_request)?;
        let (store, name, quotas) = (self.store.clone(), canonical.to_string(), self.brain_quotas);
        let admit = move || crate::brain_quota::admit(&store, quotas, maker, &name, 0);
        tokio::task::spawn_blocking(admit).await.map_err(internal)?
    }

    /// Makes the new brain `name` (admitted) of `dims` and `mirrors`, stored empty at once, so
    /// that a room of another board on the name is refused rather than its lesson dropped at
    /// the end. `Some` brain when another room made it first meanwhile (to be checked against
    /// the board asked for), `None` when this one is made (and empty).
    async fn make_brain(
        &self,
        name: &str,
        dims: parlor_shared::hexapawn::Dims,
        mirrors: bool,
    ) -> Result<Option<Brain>, Refusal> {
        let (store, named) = (self.store.clone(), name.to_string());
        let empty = crate::store::BrainRow::of(&Brain::new(dims, mirrors));
        let create = move || store.create_brain(&named, &empty);
        let made = tokio::task::spawn_blocking(create)
            .await
            .map_err(internal)?;
        match made.map_err(internal)? {
            true => Ok(None),
            false => self.load_brain(name).await,
        }
    }

    async fn load_brain(&self, name: &str) -> Result<Option<Brain>, Refusal> {
        let (store, name) = (self.store.clone(), name.to_string());
        let loaded = tokio::task::spawn_blocking(move || store.load_brain(&name))
            .await
            .map_err(internal)?
            .map_err(internal)?;
        Ok(loaded.map(|(brain, _)| brain))
    }

    /// Claims brains for an auto match, or says which is busy.
    pub(super) fn claim_brains(&self, names: &[String]) -> Result<BrainClaim, Refusal> {
        self.brain_uses.claim_for_match(names)
    }

    /// Holds `asker`'s brain `name` while an import or a reset writes it (see
    /// `crate::brain_uses`), with its canonical name; refused when it is not theirs.
    pub fn hold_brain_to_change(
        &self,
        name: &str,
        asker: Asker,
    ) -> Result<(BrainWrite, String), Refusal> {
        self.hold_brain_for_write(&Hall::brain_to_change(name, asker)?)
    }

    /// Holds the brain of canonical name `name` while it is written or deleted, with its name.
    pub fn hold_brain_for_write(&self, name: &str) -> Result<(BrainWrite, String), Refusal> {
        Ok((self.brain_uses.hold_for_write(name)?, name.to_string()))
    }

    /// The canonical name of the brain `asker` names to change (import over, reset, delete), or why
    /// they may not: only a brain's owner changes it, and the hall's operators the hall's
    /// shared brains (`hall/NAME`: how an operator shares one, read-only for everybody else).
    pub fn brain_to_change(name: &str, asker: Asker) -> Result<String, Refusal> {
        let brain = BrainRef::canonical(name, Some(asker.player)).map_err(bad_request)?;
        let shares = asker.operator && brain.owner == BrainOwner::Hall;
        if !brain.writable_by(asker.player) && !shares {
            return Err((
                ErrorCode::NotYours,
                format!(
                    "brain {name:?} is not yours: only its owner imports over it, resets it \
                     or deletes it (export it and import it under a name of your own for a copy)"
                ),
            ));
        }
        Ok(brain.text())
    }

    /// The canonical name of the brain `asker` imports as `name`, or why they may not: as
    /// [`Hall::brain_to_change`], and the name must be one a new brain may have
    /// (`check_new_brain_name`), since an import may make one.
    pub fn brain_to_import(name: &str, asker: Asker) -> Result<String, Refusal> {
        BrainRef::parse_new(name).map_err(bad_request)?;
        Hall::brain_to_change(name, asker)
    }

    /// Refuses to change a brain an auto match is training; `name` is canonical.
    pub fn check_brain_free(&self, name: &str) -> Result<(), Refusal> {
        self.brain_uses.check_not_training(name)
    }
}

/// `refused`, which names brains of `names` by their written form (`3f2a…/HER`), as `viewer`
/// reads them: their own by its plain name, as their lists show it.
fn as_seen_by(refused: Refusal, names: &[String], viewer: PlayerId) -> Refusal {
    let (code, mut reason) = refused;
    for name in names {
        if let Ok(brain) = BrainRef::parse(name)
            && brain.writable_by(viewer)
        {
            let shown = format!("your brain {:?}", brain.shown_to(Some(viewer)));
            reason = reason.replace(&format!("brain {name:?}"), &shown);
        }
    }
    (code, reason)
}

/// `name`'s canonical form (a plain name, stored before brains had owners, is the hall's); a
/// name that does not read stays as it is, for the checks after to refuse.
pub(super) fn canonical_or_as_is(name: &str) -> String {
    BrainRef::canonical(name, None).map_or_else(|_| name.to_string(), |brain| brain.text())
}

/// The brain loaded (or a new one) if it fits the board size and mirror setting asked for.
pub(super) fn fitting_brain(
    brain: Option<Brain>,
    dims: parlor_shared::hexapawn::Dims,
    mirrors: bool,
    name: &str,
) -> Result<Brain, Refusal> {
    let Some(brain) = brain else {
        return Ok(Brain::new(dims, mirrors));
    };
    check_fits(&brain, dims, mirrors, name)?;
    Ok(brain)
}

/// Whether `brain` fits the board size and mirror setting asked for, or why not.
fn check_fits(
    brain: &Brain,
    dims: parlor_shared::hexapawn::Dims,
    mirrors: bool,
    name: &str,
) -> Result<(), Refusal> {
    if brain.dims() != dims || brain.mirrors() != mirrors {
        let mirrors_text = |merged: bool| {
            if merged {
                "mirrors merged"
            } else {
                "mirrors apart"
            }
        };
        return Err(bad_request(format!(
            "brain {name:?} is for {} boards with {}, not {dims} with {}",
            brain.dims(),
            mirrors_text(brain.mirrors()),
            mirrors_text(mirrors),
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{BrainUse, Store};
    use parlor_shared::game::GameSetup;
    use parlor_shared::hexapawn::{AutoConfig, AutoMatch, Dims, PlayMode};

    /// The refusal of a game on a brain too big for the boxes the games may hold, which comes
    /// after the brain is loaded, names it as its owner's list does too.
    #[tokio::test]
    async fn the_boxes_refusal_names_the_creators_brain_as_their_list_does() {
        let store = Store::in_memory().unwrap();
        let hall = Hall::new(store.clone(), crate::Limits::default().room_lifetimes());
        let ada = crate::audience::test_player(1);
        let config = AutoConfig {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds: 50,
            seed: 3,
        };
        let [taught, _] = AutoMatch::new(config).run().brains;
        let name = format!("{}/Taught", ada.id);
        let stored = BrainUse {
            name: &name,
            brain: &taught,
        };
        store.save_brains(&[stored]).unwrap();
        let mut others = hall.brain_uses().enter_game("hall/Others").unwrap();
        others
            .hold_boxes(crate::brain_uses::MAX_BOXES_IN_GAMES)
            .unwrap();
        let setup = GameSetup::Hexapawn(HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode: PlayMode::Fast,
            brain: "Taught".into(),
        });
        let seats = vec![SeatSpec::Human, SeatSpec::ai(1)];
        let (code, reason) = hall.create_room(setup, seats, &ada).await.unwrap_err();
        assert_eq!(code, ErrorCode::ServerBusy, "{reason}");
        assert!(reason.contains(r#"your brain "Taught" has"#), "{reason}");
    }

    #[test]
    fn a_refusal_names_the_askers_own_brain_as_their_list_does() {
        let ada = PlayerId(0xada0_0000_0000_0001);
        let names = [format!("{ada}/HER"), "hall/Old".to_string()];
        let refused = (
            ErrorCode::BrainBusy,
            format!("brain {:?} is busy; brain \"hall/Old\" too", names[0]),
        );
        let (code, reason) = as_seen_by(refused, &names, ada);
        assert_eq!(code, ErrorCode::BrainBusy);
        assert_eq!(reason, "your brain \"HER\" is busy; brain \"hall/Old\" too");
    }
}
