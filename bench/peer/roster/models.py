"""A campaign roster the usual Django way: one table per level (campaign, membership, force,
platoon, unit) joined by foreign keys, users from django.contrib.auth, API tokens in their own
table (as Django REST framework's token authentication keeps them)."""

from django.conf import settings
from django.db import models


class Token(models.Model):
    key = models.CharField(max_length=40, primary_key=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)


class Campaign(models.Model):
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)

    class Meta:
        unique_together = [("campaign", "user")]


class Force(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    name = models.CharField(max_length=100)
    version = models.IntegerField(default=1)
    archived_at = models.DateTimeField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)


class Platoon(models.Model):
    force = models.ForeignKey(Force, related_name="platoons", on_delete=models.CASCADE)
    position = models.IntegerField()
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["position"]


class Unit(models.Model):
    platoon = models.ForeignKey(Platoon, related_name="units", on_delete=models.CASCADE)
    position = models.IntegerField()
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20)
    quality = models.CharField(max_length=20)
    resolve = models.CharField(max_length=20, null=True)
    strength = models.IntegerField()
    starting_strength = models.IntegerField()
    armour = models.CharField(max_length=20)
    basic_weapon = models.CharField(max_length=30, null=True)
    support_weapons = models.JSONField(default=list)
    heavy_weapons = models.JSONField(default=list)
    traits = models.JSONField(default=list)
    personalities = models.JSONField(default=list)
    status = models.CharField(max_length=20, default="active")

    class Meta:
        ordering = ["position"]
