/* Neutral messages: what the mapping engine produces and the outputs send.
 *
 * A message is an OSC-shaped thing (an address and typed arguments) that
 * knows nothing of any wire format. A batch holds one frame's messages for
 * one output, in order, and is reused from frame to frame so that the hot
 * path does not allocate once it has warmed up. */
#pragma once

#include <glib.h>

/* The only argument types receivers handle well: ids and counts as int32,
 * every value as float32, names as strings. */
typedef enum {
	MESSAGE_ARG_INT32 = 'i',
	MESSAGE_ARG_FLOAT32 = 'f',
	MESSAGE_ARG_STRING = 's',
} MessageArgType;

typedef struct {
	MessageArgType type;
	union {
		gint32 i;
		float f;
		guint s; /* offset of the string in the batch's text */
	};
} MessageArg;

typedef struct {
	guint address;   /* offset in the batch's text */
	guint first_arg; /* index in the batch's args */
	guint n_args;
	guint user; /* the user the message is about; 0 for none */
} Message;

typedef struct {
	GArray *messages; /* Message */
	GArray *args;     /* MessageArg */
	GString *text;    /* NUL-separated addresses and string arguments */
} MessageBatch;

MessageBatch *message_batch_new(void);
void message_batch_free(MessageBatch *batch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MessageBatch, message_batch_free)

/** message_batch_clear: empties @batch, keeping its memory for reuse. */
void message_batch_clear(MessageBatch *batch);

/** message_batch_add: starts a message; the arguments added next belong to it. */
void message_batch_add(MessageBatch *batch, guint user, const char *address);
void message_batch_add_int32(MessageBatch *batch, gint32 value);
void message_batch_add_float32(MessageBatch *batch, float value);
void message_batch_add_string(MessageBatch *batch, const char *value);

static inline guint
message_batch_length(const MessageBatch *batch)
{
	return batch->messages->len;
}

static inline const Message *
message_batch_get(const MessageBatch *batch, guint index)
{
	return &g_array_index(batch->messages, Message, index);
}

static inline const char *
message_address(const MessageBatch *batch, const Message *message)
{
	return batch->text->str + message->address;
}

static inline const MessageArg *
message_arg(const MessageBatch *batch, const Message *message, guint index)
{
	return &g_array_index(batch->args, MessageArg, message->first_arg + index);
}

static inline const char *
message_arg_string(const MessageBatch *batch, const MessageArg *arg)
{
	return batch->text->str + arg->s;
}

/**
 * message_osc_size:
 * The bytes @message takes as an OSC message: address, type tags and
 * arguments, each padded to four bytes.
 */
gsize message_osc_size(const MessageBatch *batch, const Message *message);

/** message_types: the OSC type tag string of @message (",fff"), newly allocated. */
char *message_types(const MessageBatch *batch, const Message *message);
