"""Plays one battle through the Python client generated from openapi/openapi.json
(openapi-python-client), against the server at FAD_BASE_URL: two players register, one makes a
campaign and the other joins, each brings a force, a battle is set up, its result recorded and
confirmed, and each side's post-battle rolls are made with entered dice and finalized.

Run by .ci/clients.sh with the generated package on PYTHONPATH. Exits non-zero (with the step
that failed) when any answer is not the documented one.
"""

import os
import sys

from fad_campaign_client import AuthenticatedClient, Client
from fad_campaign_client.api.auth import login, register
from fad_campaign_client.api.battles import (
    confirm_battle_result,
    create_battle,
    finalize_aftermath,
    get_aftermath,
    get_timeline,
    record_battle_result,
    roll_aftermath,
)
from fad_campaign_client.api.campaigns import (
    create_campaign,
    create_invite,
    get_standings,
    join_campaign,
)
from fad_campaign_client.api.forces import create_force
from fad_campaign_client.models import (
    AftermathResponse,
    AftermathStage,
    BattleOutcome,
    BattleResponse,
    BattleState,
    CampaignResponse,
    CreateBattleRequest,
    CreateCampaignRequest,
    CreatedInviteResponse,
    CreateInviteRequest,
    CredentialsRequest,
    DiceRequest,
    EnteredDice,
    EnteredDiceAdditionalProperty,
    FinalizeRequest,
    ForceResponse,
    JoinCampaignRequest,
    LossRequest,
    MemberResponse,
    PlatoonRequest,
    Quality,
    RegisterRequest,
    ResultRequest,
    RollSource,
    RosterRequest,
    Side,
    StandingsResponse,
    Timeline,
    TokenResponse,
    Unit,
    UnitKind,
    UserResponse,
)

BASE = os.environ["FAD_BASE_URL"]
PASSWORD = "correct horse battery staple"


def expect(kind, answer, what):
    """`answer` when it is a `kind`, else stop with what was asked and what came back."""
    if not isinstance(answer, kind):
        sys.exit(f"drive.py: {what}: expected {kind.__name__}, got {answer!r}")
    return answer


def player(name):
    """Registers `name` and signs in; the client carries the access token."""
    anonymous = Client(base_url=BASE, raise_on_unexpected_status=True)
    expect(UserResponse, register.sync(client=anonymous, body=RegisterRequest(username=name, password=PASSWORD)), f"register {name}")
    token = expect(TokenResponse, login.sync(client=anonymous, body=CredentialsRequest(username=name, password=PASSWORD)), f"login {name}")
    return AuthenticatedClient(base_url=BASE, token=token.access_token, raise_on_unexpected_status=True)


def roster(name, squads):
    """A one-platoon force of Regular squads of eight."""
    units = [
        Unit(name=squad, kind=UnitKind.SQUAD, quality=Quality.REGULAR, strength=8, starting_strength=8)
        for squad in squads
    ]
    return RosterRequest(name=name, platoons=[PlatoonRequest(name="1st Platoon", units=units)])


def unit_id(force, name):
    return next(u.id for p in force.platoons for u in p.units if u.name == name)


def aftermath(client, battle_id, force_id):
    """Rolls each post-battle step with entered dice (a 4 for every die the step lists), then
    finalizes without reinforcements."""
    view = expect(AftermathResponse, get_aftermath.sync(battle_id, force_id, client=client), "read the aftermath")
    rolled_steps = 0
    while view.next_step:
        if rolled_steps > 20:
            sys.exit(f"drive.py: still a step to roll after {rolled_steps}: {view.next_step}")
        dice = EnteredDice()
        for due in view.next_dice:
            count = int(due.dice.split("d")[0])
            by_subject = dice.additional_properties.setdefault(str(due.step), EnteredDiceAdditionalProperty())
            by_subject.additional_properties[due.subject] = [4] * count
        body = DiceRequest(step=view.next_step, dice=dice)
        view = expect(AftermathResponse, roll_aftermath.sync(battle_id, force_id, client=client, body=body), f"roll {view.next_step}")
        rolled_steps += 1
    if rolled_steps == 0:
        sys.exit(f"drive.py: no post-battle step to roll for {force_id}")
    server_rolled = [str(roll.step) for roll in view.rolls if roll.source != RollSource.PLAYER]
    if server_rolled:
        sys.exit(f"drive.py: the server rolled {server_rolled} although every die was entered")
    done = expect(
        AftermathResponse,
        finalize_aftermath.sync(battle_id, force_id, client=client, body=FinalizeRequest(forgo_reinforcements=True)),
        "finalize",
    )
    if done.stage != AftermathStage.FINALIZED:
        sys.exit(f"drive.py: finalize left the stage at {done.stage}")
    return rolled_steps


def main():
    blue_player, red_player = player("blue_player"), player("red_player")
    campaign = expect(CampaignResponse, create_campaign.sync(client=blue_player, body=CreateCampaignRequest(name="Generated client campaign")), "create the campaign")
    invite = expect(CreatedInviteResponse, create_invite.sync(campaign.id, client=blue_player, body=CreateInviteRequest()), "invite")
    expect(MemberResponse, join_campaign.sync(client=red_player, body=JoinCampaignRequest(code=invite.code)), "join")
    blue = expect(ForceResponse, create_force.sync(campaign.id, client=blue_player, body=roster("Blue", ["Alpha", "Bravo"])), "Blue's force")
    red = expect(ForceResponse, create_force.sync(campaign.id, client=red_player, body=roster("Red", ["Charlie"])), "Red's force")

    battle = expect(
        BattleResponse,
        create_battle.sync(campaign.id, client=blue_player, body=CreateBattleRequest(sides=[Side(force_id=blue.id), Side(force_id=red.id)])),
        "create the battle",
    )
    owners = [side.owner_name for side in battle.sides]
    if owners != ["blue_player", "red_player"]:
        sys.exit(f"drive.py: the new battle names its sides' owners {owners}")
    result = ResultRequest(
        outcome=BattleOutcome.WIN,
        winner_force_id=blue.id,
        losses=[
            LossRequest(unit_id=unit_id(blue, "Alpha"), figures_lost=3),
            LossRequest(unit_id=unit_id(red, "Charlie"), figures_lost=5),
        ],
    )
    pending = expect(BattleResponse, record_battle_result.sync(battle.id, client=blue_player, body=result), "record the result")
    assert pending.state == BattleState.PENDING, pending.state
    # No body: the generated client leaves it out, which the server takes as `{}`.
    confirmed = expect(BattleResponse, confirm_battle_result.sync(battle.id, client=red_player), "confirm the result")
    assert confirmed.state == BattleState.AFTERMATH, confirmed.state

    steps = aftermath(blue_player, battle.id, blue.id) + aftermath(red_player, battle.id, red.id)

    table = expect(StandingsResponse, get_standings.sync(campaign.id, client=red_player), "read the standings")
    leader = table.rows[0]
    if (leader.rank, leader.name) != (1, "Blue"):
        sys.exit(f"drive.py: the winner does not lead the standings: {leader}")
    timeline = expect(Timeline, get_timeline.sync(campaign.id, client=red_player), "read the timeline")
    states = [entry.battle.state for entry in timeline.entries]
    if states != [BattleState.COMPLETE]:
        sys.exit(f"drive.py: the timeline shows {states}, not one complete battle")
    print(f"drive.py: battle played through the Python client ({steps} post-battle steps rolled with entered dice; {len(table.rows)} standings rows)")


if __name__ == "__main__":
    main()
