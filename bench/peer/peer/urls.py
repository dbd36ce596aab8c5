from django.urls import path

from roster import views

urlpatterns = [
    path("api/forces/<int:force_id>", views.force_detail),
]
