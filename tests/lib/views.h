/* Demo views and rooms of them, as the room and several-sensor tests set
 * them up: a view placed in degrees, and a room whose sensors stand where
 * views or a calibration put them. */
#pragma once

#include <glib.h>

#include "demo/demo-render.h"
#include "room/room.h"

/** views_at: a view at @x, @z, @height mm, turned @yaw, @pitch and @roll degrees. */
DemoView views_at(double x, double z, double height, double yaw, double pitch, double roll);

/**
 * views_room_new:
 * A room of @n sensors named "sensor1", "sensor2"... placed as @places
 * (only where they stand and how they are turned is read), with sources
 * @sources (NULL: each its name). Fails the test when one does not fit.
 */
Room *views_room_new(const RoomSensor *places, const char *const *sources, guint n);

/**
 * views_room:
 * As views_room_new(), with a sensor where each of @views stands: the
 * demo's world is the room's frame.
 */
Room *views_room(const DemoView *views, const char *const *sources, guint n);
