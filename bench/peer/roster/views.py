"""GET /api/forces/<id>: the peer of fad-campaign's GET /api/v1/forces/{id}. Token
authentication, a membership check, the force with its platoons and units (prefetched), points
at every level, rendered as JSON."""

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from .models import Force, Membership, Token

# Points per figure by quality and armour: a stand-in for the rules' points formula, computed
# per unit on every read as fad-campaign computes (or caches) its own.
QUALITY = {"untrained": 2.0, "green": 3.0, "regular": 4.0, "veteran": 5.0, "elite": 6.0}
ARMOUR = {"none": 0.0, "light": 0.5, "improved": 1.0, "heavy": 1.5}


def unit_points(unit):
    base = QUALITY.get(unit.quality, 4.0) + ARMOUR.get(unit.armour, 0.0)
    extra = 2.0 * len(unit.support_weapons) + 5.0 * len(unit.heavy_weapons)
    return round(base * unit.strength + extra, 2)


def caller(request):
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme not in ("Token", "Bearer") or not key:
        return None
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token and token.user.is_active else None


@require_GET
def force_detail(request, force_id):
    user = caller(request)
    if user is None:
        return JsonResponse({"detail": "No or invalid credentials."}, status=401)
    force = (
        Force.objects.select_related("owner")
        .prefetch_related("platoons__units")
        .filter(pk=force_id)
        .first()
    )
    if force is None or not Membership.objects.filter(
        campaign_id=force.campaign_id, user=user
    ).exists():
        return JsonResponse({"detail": "No such force."}, status=404)
    platoons = []
    for platoon in force.platoons.all():
        units = [
            {
                "id": unit.id,
                "name": unit.name,
                "kind": unit.kind,
                "quality": unit.quality,
                "resolve": unit.resolve,
                "strength": unit.strength,
                "starting_strength": unit.starting_strength,
                "armour": unit.armour,
                "basic_weapon": unit.basic_weapon,
                "support_weapons": unit.support_weapons,
                "heavy_weapons": unit.heavy_weapons,
                "traits": unit.traits,
                "personalities": unit.personalities,
                "status": unit.status,
                "points": unit_points(unit),
            }
            for unit in platoon.units.all()
        ]
        platoons.append(
            {
                "name": platoon.name,
                "points": round(sum(u["points"] for u in units), 2),
                "units": units,
            }
        )
    response = JsonResponse(
        {
            "id": force.id,
            "campaign_id": force.campaign_id,
            "owner_id": force.owner_id,
            "owner_name": force.owner.get_full_name() or force.owner.username,
            "name": force.name,
            "points": round(sum(p["points"] for p in platoons), 2),
            "platoons": platoons,
            "version": force.version,
            "archived": force.archived_at is not None,
            "archived_at": force.archived_at,
            "created_at": force.created_at,
            "updated_at": force.updated_at,
        }
    )
    response["ETag"] = f'"{force.version}"'
    response["Cache-Control"] = "no-store"
    return response
