//! The ids an odds combat's newer parts name (attack supply, support from a distance, the
//! retreats zones block), a supply step's sides, zone rules and source units, rail
//! movement's impulses and unit types, and the ways off the map.

use super::{At, Checker, Ids, Parsed};
use crate::model::{GameFile, MapExit, OddsCombat, Rail, ZoneSupply};

impl Checker<'_> {
    pub(super) fn odds_combat_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        c: &OddsCombat,
        ids: &Ids,
    ) {
        let at = format!("{at}/combat");
        if let Some(a) = &c.attack_supply {
            let p = format!("{at}/attack_supply");
            let types = &ids.unit_types;
            self.references(f, &format!("{p}/sources"), "unit type", &a.sources, types);
            self.references(f, &format!("{p}/exempt"), "unit type", &a.exempt, types);
            let nations = &ids.nations;
            self.references(
                f,
                &format!("{p}/zones_block"),
                "nation",
                &a.zones_block,
                nations,
            );
            for (i, r) in a.reach.iter().enumerate() {
                let q = format!("{p}/reach/{i}/nations");
                self.references(f, &q, "nation", &r.nations, nations);
            }
        }
        for (i, s) in c.support.iter().enumerate() {
            let p = format!("{at}/support/{i}");
            self.references(
                f,
                &format!("{p}/types"),
                "unit type",
                &s.types,
                &ids.unit_types,
            );
            for (k, w) in s.while_flag.iter().enumerate() {
                let q = format!("{p}/while_flag/{k}/flag");
                self.reference(f, &q, "flag", &w.flag, &ids.flags);
            }
        }
        let p = format!("{at}/retreat_blocked_by_zones");
        self.references(f, &p, "nation", &c.retreat_blocked_by_zones, &ids.nations);
        let p = format!("{at}/no_retreat_types");
        self.references(f, &p, "unit type", &c.no_retreat_types, &ids.unit_types);
    }

    pub(super) fn zone_supply_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        z: &ZoneSupply,
        ids: &Ids,
    ) {
        self.references(f, &format!("{at}/sides"), "side", &z.sides, &ids.sides);
        let p = format!("{at}/zones_block");
        self.references(f, &p, "nation", &z.zones_block, &ids.nations);
        let p = format!("{at}/source_units");
        self.references(f, &p, "unit type", &z.source_units, &ids.unit_types);
    }

    pub(super) fn rail_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        r: &Rail,
        ids: &Ids,
        impulses: usize,
    ) {
        for (i, x) in r.impulses.iter().enumerate() {
            let p = format!("{at}/impulses/{i}");
            if x.impulse >= impulses {
                let msg = format!("there is no impulse {} (impulses count from 0)", x.impulse);
                self.error(f.at(&format!("{p}/impulse")), "E0201", msg);
            }
            let types = &ids.unit_types;
            self.references(f, &format!("{p}/types"), "unit type", &x.types, types);
            self.references(f, &format!("{p}/except"), "unit type", &x.except, types);
        }
    }

    pub(super) fn map_exit_refs(&mut self, f: &Parsed<GameFile>, at: &str, x: &MapExit, ids: &Ids) {
        self.references(
            f,
            &format!("{at}/nations"),
            "nation",
            &x.nations,
            &ids.nations,
        );
        self.reference(
            f,
            &format!("{at}/region"),
            "region",
            &x.region,
            &ids.regions,
        );
        self.reference(f, &format!("{at}/to"), "box", &x.to, &ids.boxes);
        if let Some(flag) = &x.flag {
            self.reference(f, &format!("{at}/flag"), "flag", flag, &ids.flags);
        }
    }
}
