#include "views.h"

#define DEG (G_PI / 180.0)

DemoView
views_at(double x, double z, double height, double yaw, double pitch, double roll)
{
	DemoView v = { .x = x,
		       .z = z,
		       .height = height,
		       .yaw = yaw * DEG,
		       .pitch = pitch * DEG,
		       .roll = roll * DEG };

	return v;
}

Room *
views_room_new(const RoomSensor *places, const char *const *sources, guint n)
{
	Room *room = room_new();

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("sensor%u", i + 1);
		g_autoptr(GError) error = NULL;
		RoomSensor s = places[i];

		s.name = name;
		s.source = sources != NULL ? (char *)sources[i] : name;
		g_assert_true(room_add_sensor(room, &s, &error));
		g_assert_no_error(error);
	}
	return room;
}

Room *
views_room(const DemoView *views, const char *const *sources, guint n)
{
	g_autofree RoomSensor *places = g_new0(RoomSensor, MAX(n, 1));

	for (guint i = 0; i < n; i++) {
		places[i].x_mm = views[i].x;
		places[i].z_mm = views[i].z;
		places[i].height_mm = views[i].height;
		places[i].yaw_deg = views[i].yaw / DEG;
		places[i].tilt_deg = views[i].pitch / DEG;
		places[i].roll_deg = views[i].roll / DEG;
	}
	return views_room_new(places, sources, n);
}
