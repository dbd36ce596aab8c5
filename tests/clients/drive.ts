// Plays one battle through openapi-fetch typed by the openapi-typescript output of
// openapi/openapi.json, against the server at FAD_BASE_URL: the same story as drive.py (two
// players, a campaign, two forces, a battle, its result confirmed, each side's post-battle rolls
// with entered dice, finalized). `tsc --strict` checks every request and answer against the
// document before it runs. Run by .ci/clients.sh; exits non-zero naming the step that failed.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

// Node's globals, declared here rather than pulling in @types/node for two of them.
declare const process: { env: Record<string, string | undefined>; exit(code: number): never };

type Schemas = components["schemas"];
const base = process.env.FAD_BASE_URL;
if (!base) throw new Error("FAD_BASE_URL is not set");
const password = "correct horse battery staple";

/** The data of an answer, or stop with the step and the problem the server sent. */
function must<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`drive.ts: ${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function player(name: string) {
  const anonymous = createClient<paths>({ baseUrl: base });
  const credentials = { username: name, password };
  must(`register ${name}`, await anonymous.POST("/api/v1/auth/register", { body: credentials }));
  const token = must(`login ${name}`, await anonymous.POST("/api/v1/auth/login", { body: credentials }));
  return createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token.access_token}` } });
}
type Api = Awaited<ReturnType<typeof player>>;

function roster(name: string, squads: string[]): Schemas["RosterRequest"] {
  const units: Schemas["Unit"][] = squads.map((squad) => ({
    name: squad,
    kind: "squad",
    quality: "regular",
    strength: 8,
    starting_strength: 8,
  }));
  return { name, platoons: [{ name: "1st Platoon", units }] };
}

function unitId(force: Schemas["ForceResponse"], name: string): string {
  for (const platoon of force.platoons) {
    for (const unit of platoon.units) {
      if (unit.name === name && unit.id) return unit.id;
    }
  }
  throw new Error(`drive.ts: no unit ${name}`);
}

/** Rolls each post-battle step with entered dice (a 4 for every die), then finalizes. */
async function aftermath(api: Api, battle_id: string, force_id: string): Promise<number> {
  const path = { battle_id, force_id };
  let view = must("read the aftermath", await api.GET("/api/v1/battles/{battle_id}/aftermath/{force_id}", { params: { path } }));
  let steps = 0;
  while (view.next_step) {
    if (steps > 20) throw new Error(`drive.ts: still a step to roll after ${steps}: ${view.next_step}`);
    const dice: Schemas["EnteredDice"] = {};
    for (const due of view.next_dice) {
      const count = Number(due.dice.split("d")[0]);
      (dice[due.step] ??= {})[due.subject] = Array<number>(count).fill(4);
    }
    view = must(
      `roll ${view.next_step}`,
      await api.POST("/api/v1/battles/{battle_id}/aftermath/{force_id}/roll", {
        params: { path },
        body: { step: view.next_step, dice },
      }),
    );
    steps += 1;
  }
  if (steps === 0) throw new Error(`drive.ts: no post-battle step to roll for ${force_id}`);
  const serverRolled = view.rolls.filter((roll) => roll.source !== "player").map((roll) => roll.step);
  if (serverRolled.length > 0) throw new Error(`drive.ts: the server rolled ${serverRolled.join(", ")}`);
  const done = must(
    "finalize",
    await api.POST("/api/v1/battles/{battle_id}/aftermath/{force_id}/finalize", {
      params: { path },
      body: { forgo_reinforcements: true },
    }),
  );
  if (done.stage !== "finalized") throw new Error(`drive.ts: finalize left the stage at ${done.stage}`);
  return steps;
}

async function main(): Promise<void> {
  const blue_player = await player("blue_player");
  const red_player = await player("red_player");
  const campaign = must("create the campaign", await blue_player.POST("/api/v1/campaigns", { body: { name: "Generated client campaign" } }));
  const campaign_id = campaign.id;
  const invite = must(
    "invite",
    await blue_player.POST("/api/v1/campaigns/{campaign_id}/invites", { params: { path: { campaign_id } }, body: {} }),
  );
  must("join", await red_player.POST("/api/v1/campaigns/join", { body: { code: invite.code } }));
  const forces = "/api/v1/campaigns/{campaign_id}/forces";
  const blue = must("Blue's force", await blue_player.POST(forces, { params: { path: { campaign_id } }, body: roster("Blue", ["Alpha", "Bravo"]) }));
  const red = must("Red's force", await red_player.POST(forces, { params: { path: { campaign_id } }, body: roster("Red", ["Charlie"]) }));

  const battle = must(
    "create the battle",
    await blue_player.POST("/api/v1/campaigns/{campaign_id}/battles", {
      params: { path: { campaign_id } },
      body: { sides: [{ force_id: blue.id }, { force_id: red.id }] },
    }),
  );
  const battle_id = battle.id;
  const owners = battle.sides.map((side) => side.owner_name);
  if (owners.join() !== "blue_player,red_player") throw new Error(`drive.ts: the new battle names ${owners.join(", ")}`);
  const pending = must(
    "record the result",
    await blue_player.POST("/api/v1/battles/{battle_id}/result", {
      params: { path: { battle_id } },
      body: {
        outcome: "win",
        winner_force_id: blue.id,
        losses: [
          { unit_id: unitId(blue, "Alpha"), figures_lost: 3 },
          { unit_id: unitId(red, "Charlie"), figures_lost: 5 },
        ],
      },
    }),
  );
  if (pending.state !== "pending") throw new Error(`drive.ts: recorded, the battle is ${pending.state}`);
  // No body: the document marks it optional.
  const confirmed = must("confirm the result", await red_player.POST("/api/v1/battles/{battle_id}/result/confirm", { params: { path: { battle_id } } }));
  if (confirmed.state !== "aftermath") throw new Error(`drive.ts: confirmed, the battle is ${confirmed.state}`);

  const steps = (await aftermath(blue_player, battle_id, blue.id)) + (await aftermath(red_player, battle_id, red.id));

  const table = must("read the standings", await red_player.GET("/api/v1/campaigns/{campaign_id}/standings", { params: { path: { campaign_id } } }));
  const leader = table.rows[0];
  if (leader?.rank !== 1 || leader.name !== "Blue") throw new Error(`drive.ts: the winner does not lead: ${JSON.stringify(leader)}`);
  const timeline = must("read the timeline", await red_player.GET("/api/v1/campaigns/{campaign_id}/timeline", { params: { path: { campaign_id } } }));
  const states = timeline.entries.map((entry) => entry.battle.state);
  if (states.length !== 1 || states[0] !== "complete") throw new Error(`drive.ts: the timeline shows ${states.join(", ")}`);
  console.log(`drive.ts: battle played through the TypeScript types (${steps} post-battle steps rolled with entered dice; ${table.rows.length} standings rows)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
