import type SvgIcon from '@mui/material/SvgIcon';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AddIcon from '@mui/icons-material/Add';
import AnalyticsIcon from '@mui/icons-material/Analytics';
import AppsIcon from '@mui/icons-material/Apps';
import ArticleIcon from '@mui/icons-material/Article';
import AssignmentIcon from '@mui/icons-material/Assignment';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import BadgeIcon from '@mui/icons-material/Badge';
import BarChartIcon from '@mui/icons-material/BarChart';
import BookIcon from '@mui/icons-material/Book';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import BrushIcon from '@mui/icons-material/Brush';
import BugReportIcon from '@mui/icons-material/BugReport';
import BuildIcon from '@mui/icons-material/Build';
import CableIcon from '@mui/icons-material/Cable';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import CalendarTodayIcon from '@mui/icons-material/CalendarToday';
import CampaignIcon from '@mui/icons-material/Campaign';
import CancelIcon from '@mui/icons-material/Cancel';
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import ChatIcon from '@mui/icons-material/Chat';
import ChatBubbleIcon from '@mui/icons-material/ChatBubble';
import CheckIcon from '@mui/icons-material/Check';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ChecklistIcon from '@mui/icons-material/Checklist';
import CircleIcon from '@mui/icons-material/Circle';
import CloudIcon from '@mui/icons-material/Cloud';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import CodeIcon from '@mui/icons-material/Code';
import CollectionsBookmarkIcon from '@mui/icons-material/CollectionsBookmark';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import ConstructionIcon from '@mui/icons-material/Construction';
import CreateIcon from '@mui/icons-material/Create';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DeleteIcon from '@mui/icons-material/Delete';
import DescriptionIcon from '@mui/icons-material/Description';
import DevicesIcon from '@mui/icons-material/Devices';
import DiscountIcon from '@mui/icons-material/Discount';
import DnsIcon from '@mui/icons-material/Dns';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import EmailIcon from '@mui/icons-material/Email';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import ExploreIcon from '@mui/icons-material/Explore';
import ExtensionIcon from '@mui/icons-material/Extension';
import FaceIcon from '@mui/icons-material/Face';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FavoriteIcon from '@mui/icons-material/Favorite';
import FileCopyIcon from '@mui/icons-material/FileCopy';
import FilterListIcon from '@mui/icons-material/FilterList';
import FlagIcon from '@mui/icons-material/Flag';
import FolderIcon from '@mui/icons-material/Folder';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import ForumIcon from '@mui/icons-material/Forum';
import GridViewIcon from '@mui/icons-material/GridView';
import GroupsIcon from '@mui/icons-material/Groups';
import HeadsetIcon from '@mui/icons-material/Headset';
import HelpIcon from '@mui/icons-material/Help';
import HistoryIcon from '@mui/icons-material/History';
import HomeIcon from '@mui/icons-material/Home';
import HouseIcon from '@mui/icons-material/House';
import HttpsIcon from '@mui/icons-material/Https';
import ImageIcon from '@mui/icons-material/Image';
import ImportContactsIcon from '@mui/icons-material/ImportContacts';
import InfoIcon from '@mui/icons-material/Info';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import KeyIcon from '@mui/icons-material/Key';
import LightbulbIcon from '@mui/icons-material/Lightbulb';
import LinkIcon from '@mui/icons-material/Link';
import ListIcon from '@mui/icons-material/List';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import MemoryIcon from '@mui/icons-material/Memory';
import MenuIcon from '@mui/icons-material/Menu';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import MessageIcon from '@mui/icons-material/Message';
import MonitorIcon from '@mui/icons-material/Monitor';
import MoreHorizIcon from '@mui/icons-material/MoreHoriz';
import MusicNoteIcon from '@mui/icons-material/MusicNote';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';
import PhoneIcon from '@mui/icons-material/Phone';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import PhotoIcon from '@mui/icons-material/Photo';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import PieChartIcon from '@mui/icons-material/PieChart';
import PlaceIcon from '@mui/icons-material/Place';
import PublicIcon from '@mui/icons-material/Public';
import QuestionMarkIcon from '@mui/icons-material/QuestionMark';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import RecyclingIcon from '@mui/icons-material/Recycling';
import RedeemIcon from '@mui/icons-material/Redeem';
import RefreshIcon from '@mui/icons-material/Refresh';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SearchIcon from '@mui/icons-material/Search';
import SellIcon from '@mui/icons-material/Sell';
import SendIcon from '@mui/icons-material/Send';
import SettingsIcon from '@mui/icons-material/Settings';
import SettingsSuggestIcon from '@mui/icons-material/SettingsSuggest';
import ShareIcon from '@mui/icons-material/Share';
import ShieldIcon from '@mui/icons-material/Shield';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import ShoppingBagOutlinedIcon from '@mui/icons-material/ShoppingBagOutlined';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import SignpostIcon from '@mui/icons-material/Signpost';
import SmartphoneIcon from '@mui/icons-material/Smartphone';
import SortIcon from '@mui/icons-material/Sort';
import SpeedIcon from '@mui/icons-material/Speed';
import StarIcon from '@mui/icons-material/Star';
import StorageIcon from '@mui/icons-material/Storage';
import TableChartIcon from '@mui/icons-material/TableChart';
import TerminalIcon from '@mui/icons-material/Terminal';
import TimerIcon from '@mui/icons-material/Timer';
import TollIcon from '@mui/icons-material/Toll';
import TranslateIcon from '@mui/icons-material/Translate';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import TuneIcon from '@mui/icons-material/Tune';
import UploadIcon from '@mui/icons-material/Upload';
import VerifiedIcon from '@mui/icons-material/Verified';
import VideocamIcon from '@mui/icons-material/Videocam';
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import ViewListIcon from '@mui/icons-material/ViewList';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import VisibilityIcon from '@mui/icons-material/Visibility';
import WarningIcon from '@mui/icons-material/Warning';

/** A MUI icon component (`typeof SvgIcon`, as every `@mui/icons-material/*` default export). */
export type SvgIconComponent = typeof SvgIcon;

/**
 * The icons an administrator can pick for a menu rule: a curated set of the Font Awesome 4 names
 * (`fa fa-user`) and Element Plus names (`el-icon-UserFilled`) that BuildAdmin rules carry, each drawn
 * with a MUI icon so no icon font has to be shipped. Unknown names fall back to a neutral glyph.
 */
export const ICON_CATALOG: Readonly<Record<string, SvgIconComponent>> = {
  'fa fa-user': PersonIcon,
  'fa fa-user-circle': AccountCircleIcon,
  'fa fa-user-circle-o': AccountCircleOutlinedIcon,
  'fa fa-users': PeopleIcon,
  'fa fa-group': GroupsIcon,
  'fa fa-user-plus': PersonAddIcon,
  'fa fa-shield': ShieldIcon,
  'fa fa-lock': LockIcon,
  'fa fa-unlock': LockOpenIcon,
  'fa fa-key': KeyIcon,
  'fa fa-expeditedssl': HttpsIcon,
  'fa fa-drivers-license': BadgeIcon,
  'fa fa-home': HomeIcon,
  'fa fa-dashboard': DashboardIcon,
  'fa fa-tachometer': SpeedIcon,
  'fa fa-cog': SettingsIcon,
  'fa fa-cogs': SettingsSuggestIcon,
  'fa fa-wrench': BuildIcon,
  'fa fa-sliders': TuneIcon,
  'fa fa-th-list': ViewListIcon,
  'fa fa-list': ListIcon,
  'fa fa-list-alt': ListAltIcon,
  'fa fa-th': GridViewIcon,
  'fa fa-th-large': ViewModuleIcon,
  'fa fa-table': TableChartIcon,
  'fa fa-tag': LocalOfferIcon,
  'fa fa-tags': SellIcon,
  'fa fa-bookmark': BookmarkIcon,
  'fa fa-book': BookIcon,
  'fa fa-file': InsertDriveFileIcon,
  'fa fa-file-text': DescriptionIcon,
  'fa fa-file-image-o': ImageIcon,
  'fa fa-folder': FolderIcon,
  'fa fa-folder-open': FolderOpenIcon,
  'fa fa-database': StorageIcon,
  'fa fa-server': DnsIcon,
  'fa fa-cloud': CloudIcon,
  'fa fa-cloud-upload': CloudUploadIcon,
  'fa fa-upload': UploadIcon,
  'fa fa-download': DownloadIcon,
  'fa fa-recycle': RecyclingIcon,
  'fa fa-trash': DeleteIcon,
  'fa fa-history': HistoryIcon,
  'fa fa-clock-o': AccessTimeIcon,
  'fa fa-calendar': CalendarMonthIcon,
  'fa fa-money': PaymentsIcon,
  'fa fa-credit-card': CreditCardIcon,
  'fa fa-bank': AccountBalanceIcon,
  'fa fa-shopping-cart': ShoppingCartIcon,
  'fa fa-gift': CardGiftcardIcon,
  'fa fa-trophy': EmojiEventsIcon,
  'fa fa-star': StarIcon,
  'fa fa-heart': FavoriteIcon,
  'fa fa-bell': NotificationsIcon,
  'fa fa-envelope': EmailIcon,
  'fa fa-comments': ForumIcon,
  'fa fa-commenting': ChatIcon,
  'fa fa-phone': PhoneIcon,
  'fa fa-mobile': SmartphoneIcon,
  'fa fa-globe': PublicIcon,
  'fa fa-map-marker': PlaceIcon,
  'fa fa-link': LinkIcon,
  'fa fa-code': CodeIcon,
  'fa fa-terminal': TerminalIcon,
  'fa fa-bug': BugReportIcon,
  'fa fa-puzzle-piece': ExtensionIcon,
  'fa fa-cubes': ViewInArIcon,
  'fa fa-bar-chart': BarChartIcon,
  'fa fa-line-chart': ShowChartIcon,
  'fa fa-pie-chart': PieChartIcon,
  'fa fa-search': SearchIcon,
  'fa fa-edit': EditIcon,
  'fa fa-pencil': CreateIcon,
  'fa fa-plus': AddIcon,
  'fa fa-check': CheckIcon,
  'fa fa-check-square-o': CheckBoxIcon,
  'fa fa-info-circle': InfoIcon,
  'fa fa-question-circle': HelpIcon,
  'fa fa-exclamation-triangle': WarningIcon,
  'fa fa-eye': VisibilityIcon,
  'fa fa-image': ImageIcon,
  'fa fa-picture-o': PhotoIcon,
  'fa fa-camera': PhotoCameraIcon,
  'fa fa-video-camera': VideocamIcon,
  'fa fa-music': MusicNoteIcon,
  'fa fa-paint-brush': BrushIcon,
  'fa fa-flag': FlagIcon,
  'fa fa-send': SendIcon,
  'fa fa-share-alt': ShareIcon,
  'fa fa-sitemap': AccountTreeIcon,
  'fa fa-circle-o': RadioButtonUncheckedIcon,
  'fa fa-circle': CircleIcon,
  'fa fa-tasks': ChecklistIcon,
  'fa fa-clipboard': AssignmentIcon,
  'fa fa-question': QuestionMarkIcon,
  'fa fa-language': TranslateIcon,
  'fa fa-paper-plane': SendIcon,
  'el-icon-UserFilled': PersonIcon,
  'el-icon-User': PersonOutlineIcon,
  'el-icon-Avatar': FaceIcon,
  'el-icon-Grid': AppsIcon,
  'el-icon-Menu': MenuIcon,
  'el-icon-List': FormatListBulletedIcon,
  'el-icon-Tools': ConstructionIcon,
  'el-icon-Setting': SettingsIcon,
  'el-icon-Money': AttachMoneyIcon,
  'el-icon-Wallet': AccountBalanceWalletIcon,
  'el-icon-GoodsFilled': ShoppingBagIcon,
  'el-icon-Goods': ShoppingBagOutlinedIcon,
  'el-icon-Discount': DiscountIcon,
  'el-icon-Monitor': MonitorIcon,
  'el-icon-Document': ArticleIcon,
  'el-icon-Folder': FolderIcon,
  'el-icon-Files': FileCopyIcon,
  'el-icon-Picture': ImageIcon,
  'el-icon-Upload': UploadIcon,
  'el-icon-Download': DownloadIcon,
  'el-icon-Delete': DeleteIcon,
  'el-icon-Edit': EditIcon,
  'el-icon-Search': SearchIcon,
  'el-icon-Lock': LockIcon,
  'el-icon-Key': KeyIcon,
  'el-icon-Message': MessageIcon,
  'el-icon-Bell': NotificationsIcon,
  'el-icon-ChatDotRound': ChatBubbleIcon,
  'el-icon-Calendar': CalendarTodayIcon,
  'el-icon-Clock': ScheduleIcon,
  'el-icon-Timer': TimerIcon,
  'el-icon-DataLine': ShowChartIcon,
  'el-icon-DataAnalysis': AnalyticsIcon,
  'el-icon-PieChart': PieChartIcon,
  'el-icon-TrendCharts': TrendingUpIcon,
  'el-icon-Histogram': BarChartIcon,
  'el-icon-HomeFilled': HomeIcon,
  'el-icon-House': HouseIcon,
  'el-icon-Location': LocationOnIcon,
  'el-icon-Link': LinkIcon,
  'el-icon-Star': StarIcon,
  'el-icon-Flag': FlagIcon,
  'el-icon-Trophy': EmojiEventsIcon,
  'el-icon-Present': RedeemIcon,
  'el-icon-Coin': TollIcon,
  'el-icon-CreditCard': CreditCardIcon,
  'el-icon-Tickets': ConfirmationNumberIcon,
  'el-icon-Promotion': CampaignIcon,
  'el-icon-Share': ShareIcon,
  'el-icon-Connection': CableIcon,
  'el-icon-Cpu': MemoryIcon,
  'el-icon-Box': Inventory2Icon,
  'el-icon-Collection': CollectionsBookmarkIcon,
  'el-icon-Notebook': MenuBookIcon,
  'el-icon-Reading': ImportContactsIcon,
  'el-icon-Management': ManageAccountsIcon,
  'el-icon-Operation': TuneIcon,
  'el-icon-Platform': DevicesIcon,
  'el-icon-Iphone': PhoneIphoneIcon,
  'el-icon-Phone': PhoneIcon,
  'el-icon-VideoCamera': VideocamIcon,
  'el-icon-Headset': HeadsetIcon,
  'el-icon-Brush': BrushIcon,
  'el-icon-Magic': AutoFixHighIcon,
  'el-icon-MagicStick': AutoFixHighIcon,
  'el-icon-Compass': ExploreIcon,
  'el-icon-Guide': SignpostIcon,
  'el-icon-Help': HelpIcon,
  'el-icon-InfoFilled': InfoIcon,
  'el-icon-WarningFilled': WarningIcon,
  'el-icon-CircleCheck': CheckCircleIcon,
  'el-icon-CircleClose': CancelIcon,
  'el-icon-Refresh': RefreshIcon,
  'el-icon-Sort': SortIcon,
  'el-icon-Filter': FilterListIcon,
  'el-icon-More': MoreHorizIcon,
  'el-icon-Odometer': SpeedIcon,
  'el-icon-Stamp': VerifiedIcon,
  'el-icon-Shield': ShieldIcon,
  'el-icon-Checked': FactCheckIcon,
  'el-icon-Finished': DoneAllIcon,
  'el-icon-Opportunity': LightbulbIcon,
};

export const ICON_NAMES: readonly string[] = Object.keys(ICON_CATALOG);

/** The MUI icon for a rule icon name, or undefined when the catalog does not know it. */
export function iconComponentOf(name: string | null | undefined): SvgIconComponent | undefined {
  if (!name) return undefined;
  const trimmed = name.trim().replace(/\s+/g, ' ');
  return ICON_CATALOG[trimmed] ?? ICON_CATALOG[trimmed.replace(/^fa /, 'fa fa-').replace(/^fa fa-fa-/, 'fa fa-')];
}

export const FALLBACK_ICON: SvgIconComponent = RadioButtonUncheckedIcon;
