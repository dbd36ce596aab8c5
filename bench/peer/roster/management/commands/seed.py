"""`manage.py seed`: the data of bench/run's R1 row. Two players in a campaign, a force of 4
platoons of 5 squads each (20 units) per player. Prints one JSON line with the first player's
token and force id."""

import json
import secrets

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from roster.models import Campaign, Force, Membership, Platoon, Token, Unit


def squad(platoon, position, name):
    return Unit(
        platoon=platoon,
        position=position,
        name=name,
        kind="squad",
        quality="regular",
        resolve="steady",
        strength=8,
        starting_strength=8,
        armour="improved",
        basic_weapon="assault_rifles",
    )


class Command(BaseCommand):
    help = "Seeds two players, a campaign and a 20-unit force each; prints token and force id."

    @transaction.atomic
    def handle(self, *args, **options):
        alice = User.objects.create_user("alice")
        bob = User.objects.create_user("bob")
        campaign = Campaign.objects.create(name="Bench", organiser=alice)
        forces = {}
        for user, name in ((alice, "Alpha"), (bob, "Bravo")):
            Membership.objects.create(campaign=campaign, user=user)
            force = Force.objects.create(campaign=campaign, owner=user, name=name)
            for p in range(4):
                platoon = Platoon.objects.create(force=force, position=p, name=f"Platoon {p + 1}")
                Unit.objects.bulk_create(
                    squad(platoon, u, f"P{p + 1} Squad {u + 1}") for u in range(5)
                )
            forces[user.username] = force.id
        token = Token.objects.create(key=secrets.token_hex(20), user=alice)
        self.stdout.write(json.dumps({"token": token.key, "force_id": forces["alice"]}))
