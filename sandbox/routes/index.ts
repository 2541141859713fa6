import type { RouteDeclaration } from '../core/route';
import { campaignsTranslations, campaignTranslationsSamplePath } from './campaignsTranslations';
import { campaignsTriggerSend } from './campaignsTriggerSend';
import { catalogItemsDelete } from './catalogItemsDelete';
import { catalogItemsPatch } from './catalogItemsPatch';
import { catalogItemsPut } from './catalogItemsPut';
import { canvasTranslations } from './canvasTranslations';
import { canvasTriggerScheduleDelete } from './canvasTriggerScheduleDelete';
import { canvasTriggerScheduleUpdate } from './canvasTriggerScheduleUpdate';
import { canvasTriggerSend } from './canvasTriggerSend';
import { messagesSend } from './messagesSend';
import { preferenceCenterUpdatePost, preferenceCenterUpdatePut } from './preferenceCenterUpdate';
import { scimUsersCreate } from './scimUsersCreate';
import { scimUsersDelete } from './scimUsersDelete';
import { scimUsersGet } from './scimUsersGet';
import { scimUsersList } from './scimUsersList';
import { scimUsersReplace } from './scimUsersReplace';
import { subscriptionStatusSet, subscriptionStatusSetV1 } from './subscriptionStatusSet';
import { transactionalSend } from './transactionalSend';
import { usersExportIds } from './usersExportIds';
import { usersExternalIdsRename } from './usersExternalIdsRename';
import { usersIdentify } from './usersIdentify';
import { usersTrack } from './usersTrack';

/** Every API endpoint the sandbox serves. A new endpoint is one file in this folder and one line here. */
export const API_ROUTES: readonly RouteDeclaration[] = [
	usersTrack,
	subscriptionStatusSet,
	subscriptionStatusSetV1,
	usersExportIds,
	usersIdentify,
	usersExternalIdsRename,
	messagesSend,
	campaignsTriggerSend,
	canvasTriggerSend,
	transactionalSend,
	canvasTriggerScheduleUpdate,
	canvasTriggerScheduleDelete,
	catalogItemsPatch,
	catalogItemsPut,
	catalogItemsDelete,
	preferenceCenterUpdatePut,
	preferenceCenterUpdatePost,
	campaignsTranslations,
	campaignTranslationsSamplePath,
	canvasTranslations,
	scimUsersCreate,
	scimUsersList,
	scimUsersGet,
	scimUsersReplace,
	scimUsersDelete,
];
