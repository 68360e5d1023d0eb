/* Fuzz target: the room parser. Whatever it reads, it writes back as text
 * it reads the same again, and each sensor's transform comes back to the
 * point it started from. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "room/room.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_round_trip(const Room *room)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *text = room_to_string(room, "fuzz");
	g_autoptr(Room) back = room_parse("fuzz.room", text, strlen(text), &error);
	g_autofree char *again = NULL;

	g_assert_no_error(error);
	again = room_to_string(back, "fuzz");
	g_assert_cmpstr(text, ==, again);
}

static void
check_transform(const RoomSensor *s)
{
	TrackerVec3 p = tracker_vec3(-1234.5, 678.9, 3456.7);
	TrackerVec3 q = room_sensor_to_camera(s, room_sensor_to_room(s, p));

	g_assert_cmpfloat(tracker_vec3_distance(p, q), <, 1e-6);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = room_parse("fuzz.room", (const char *)data, size, &error);

	if (room == NULL) {
		g_assert_nonnull(error);
		return 0;
	}
	g_assert_cmpuint(room_n_sensors(room), >=, 1);
	g_assert_cmpuint(room_n_sensors(room), <=, ROOM_MAX_SENSORS);
	check_round_trip(room);
	for (guint i = 0; i < room_n_sensors(room); i++)
		check_transform(room_get_sensor(room, i));
	return 0;
}
